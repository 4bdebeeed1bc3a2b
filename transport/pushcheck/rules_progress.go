package pushcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"yui/transport/textcut"
)

func evalReasoning(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	n := 0
	for _, s := range ss {
		ends := turnEnds(s.transcript)
		for i, fr := range s.Frames {
			if !readable(fr) || fr.Type != "reasoning" {
				continue
			}
			n++
			at := where(s.Probe, i)
			if fr.TurnID == "" {
				f.add("%s: reasoning without a string turn_id", at)
				continue
			}
			if _, ok := fr.str("delta"); !ok {
				f.add("%s: reasoning without a string delta", at)
			}
			if afterEnd(ends, fr.TurnID, i) {
				f.add("%s: reasoning of turn %s after its turn_end", at, fr.TurnID)
			}
		}
	}
	if n == 0 {
		return Skip, "the backend sent no reasoning frames (best effort: a turn may carry none)"
	}
	return f.verdict(fmt.Sprintf("reasoning frames: %d, each with turn_id and delta, while their turn ran", n))
}

var toolStates = []string{"running", "done", "failed"}

func evalToolStatus(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	n := 0
	for _, s := range ss {
		ends := turnEnds(s.transcript)
		open := map[[2]string]int{} // (turn, tool) -> running calls without a terminal state
		for i, fr := range s.Frames {
			if !readable(fr) || fr.Type != "tool_status" {
				continue
			}
			n++
			at := where(s.Probe, i)
			state, _ := fr.str("state")
			tool, _ := fr.str("tool_id")
			switch {
			case fr.TurnID == "":
				f.add("%s: tool_status without a string turn_id", at)
				continue
			case !slices.Contains(toolStates, state):
				f.add("%s: tool_status state %s (running, done or failed)", at, textcut.Cut(string(fr.Obj["state"]), 30))
				continue
			case tool == "":
				f.add("%s: tool_status without a tool_id", at)
				continue
			}
			if afterEnd(ends, fr.TurnID, i) {
				f.add("%s: tool_status of turn %s after its turn_end", at, fr.TurnID)
			}
			key := [2]string{fr.TurnID, tool}
			if state == "running" {
				open[key]++
			} else if open[key] == 0 {
				f.add("%s: tool_status %s for %s with no running before it", at, state, tool)
			} else {
				open[key]--
			}
		}
	}
	if n == 0 {
		return Skip, "the backend sent no tool_status frames (a turn may carry none)"
	}
	return f.verdict(fmt.Sprintf("tool_status frames: %d; running, then done or failed, while the turn ran", n))
}

func evalDelegations(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	n := 0
	for _, s := range ss {
		for i, fr := range s.Frames {
			if !readable(fr) || fr.Type != "delegations" {
				continue
			}
			n++
			checkDelegations(&f, where(s.Probe, i), fr)
		}
	}
	if n == 0 {
		return Skip, "the backend sent no delegations frames (a backend that hands no work to background workers sends none)"
	}
	return f.verdict(fmt.Sprintf("delegations frames: %d, every item within its limits", n))
}

func checkDelegations(f *findings, at string, fr frameIn) {
	var items []map[string]json.RawMessage
	if json.Unmarshal(fr.Obj["items"], &items) != nil || items == nil {
		f.add("%s: items is not a list of objects", at)
		return
	}
	if len(items) > maxItems {
		f.add("%s: %d items (at most %d)", at, len(items), maxItems)
	}
	seen := map[string]bool{}
	for k, it := range items {
		str := func(name string) (string, bool) {
			var s string
			raw, ok := it[name]
			return s, ok && json.Unmarshal(raw, &s) == nil
		}
		id, ok := str("id")
		if !ok || id == "" {
			f.add("%s: item %d without a string id", at, k)
		} else if seen[id] {
			f.add("%s: item id %q twice", at, id)
		}
		seen[id] = true
		if title, ok := str("title"); !ok {
			f.add("%s: item %q without a string title", at, id)
		} else if n := utf8.RuneCountInString(title); n > maxTitle {
			f.add("%s: item %q title of %d code points (cut to %d)", at, id, n, maxTitle)
		}
		if _, ok := jsonNumber(it["started_at"]); !ok {
			f.add("%s: item %q started_at is not epoch milliseconds", at, id)
		}
		state, _ := str("state")
		_, hasStatus := it["status"]
		_, hasSummary := it["summary"]
		switch state {
		case "running":
			if hasStatus || hasSummary {
				f.add("%s: running item %q carries status or summary (done items only)", at, id)
			}
		case "done":
			if st, _ := str("status"); st != "ok" && st != "error" && st != "unknown" {
				f.add("%s: done item %q status %s (ok, error or unknown)", at, id, textcut.Cut(string(it["status"]), 30))
			}
			if _, ok := jsonNumber(it["ended_at"]); !ok {
				f.add("%s: done item %q ended_at is not epoch milliseconds", at, id)
			}
			if hasSummary {
				if sum, ok := str("summary"); !ok {
					f.add("%s: item %q summary is not a string", at, id)
				} else if n := utf8.RuneCountInString(sum); n > maxSummary {
					f.add("%s: item %q summary of %d code points (cut to %d)", at, id, n, maxSummary)
				}
			}
		default:
			f.add("%s: item %q state %s (running or done)", at, id, textcut.Cut(string(it["state"]), 30))
		}
	}
}
