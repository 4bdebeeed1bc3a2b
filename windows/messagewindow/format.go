package messagewindow

import (
	"fmt"
	"image/color"

	"yui/pet/transcript"
	"yui/transport"
	"yui/windows/widgets"

	"fyne.io/fyne/v2/lang"
)

// usageText is the message window's token usage readout: "1,234 / 8,192
// tokens" (total_tokens beside the preset's context_window), just the
// total when the context window is unknown (0), "—" before any usage.
func usageText(u *transport.Usage, contextWindow int) string {
	if u == nil {
		return "—"
	}
	if contextWindow <= 0 {
		return lang.L("{{.Used}} tokens", map[string]any{"Used": widgets.GroupThousands(u.TotalTokens)})
	}
	return lang.L("{{.Used}} / {{.Window}} tokens", map[string]any{"Used": widgets.GroupThousands(u.TotalTokens), "Window": widgets.GroupThousands(int64(contextWindow))})
}

// relationLevel is a display level of the relation score
// (docs/protocol/client-tools.md rate_relation).
type relationLevel int

const (
	levelCold    relationLevel = iota // 0–19
	levelCool                         // 20–39
	levelNeutral                      // 40–59
	levelWarm                         // 60–79
	levelClose                        // 80–100
)

// relationLevels is how many levels there are: the heart meter's hearts.
const relationLevels = 5

// levelOf is the level of a score; scores out of 0–100 are clamped.
func levelOf(score int) relationLevel {
	score = min(max(score, 0), 100)
	return relationLevel(min(score/20, int(levelClose)))
}

func (l relationLevel) String() string {
	switch l {
	case levelCold:
		return "cold"
	case levelCool:
		return "cool"
	case levelNeutral:
		return "neutral"
	case levelWarm:
		return "warm"
	case levelClose:
		return "close"
	}
	return fmt.Sprintf("relationLevel(%d)", int(l))
}

// triggerLabel is the chip a user turn shows for its trigger: nothing for
// a typed message, "voice" for a spoken one, the trigger itself for the
// rest ("poke", "greeting", "check-in", "addressed by Mika").
func triggerLabel(trigger string) string {
	switch transport.Trigger(trigger) {
	case "", transport.TriggerUserMessage:
		return ""
	case transport.TriggerUserVoice:
		return "voice"
	}
	return trigger
}

// Tool states of a transcript tool entry.
const (
	toolRunning = "running"
	toolDone    = "done"
	toolFailed  = "failed"
)

// toolStateColor is the dot colour of a tool entry's state.
func toolStateColor(state string) color.Color {
	switch state {
	case toolRunning:
		return widgets.ColWaiting
	case toolDone:
		return widgets.ColReady
	case toolFailed:
		return widgets.ColFailed
	}
	return colMuted
}

// entryCopyText is what "Copy" puts on the clipboard for an entry.
func entryCopyText(e transcript.Entry) string {
	switch e.Kind {
	case transcript.KindTool:
		return e.Tool + " " + e.State
	case transcript.KindReset:
		return lang.L(resetText)
	}
	return e.Text
}
