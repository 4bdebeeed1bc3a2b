package request

import (
	"slices"
	"strings"

	"yui/transport"
)

// turnTools are the tools Options.TurnTools gave at a turn's start, by
// name: the tools a server lists can change between turns
// (notifications/tools/list_changed), and a turn calls only the ones its
// requests declared.
type turnTools map[string]transport.Tool

// turnTools reads Options.TurnTools once for a turn.
func (e *Engine) turnTools() turnTools {
	if e.opts.TurnTools == nil {
		return nil
	}
	more := turnTools{}
	for _, t := range e.opts.TurnTools() {
		if _, dup := more[t.Name]; !dup && !e.runner.Declared(t.Name) {
			more[t.Name] = t
		}
	}
	return more
}

// specs declares them, sorted by name so the request is stable.
func (m turnTools) specs() []ToolSpec {
	if len(m) == 0 {
		return nil
	}
	out := make([]ToolSpec, 0, len(m))
	for _, t := range m {
		out = append(out, ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	sortSpecs(out)
	return out
}

func sortSpecs(s []ToolSpec) {
	slices.SortFunc(s, func(a, b ToolSpec) int { return strings.Compare(a.Name, b.Name) })
}
