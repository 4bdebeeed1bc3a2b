package chatcompletions

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"yui/transport/request"
	"yui/transport/textcut"
)

// The long-term memory's summaries (request/facts.go): what the dropped
// turns said, and a request aside from the transcript.

// Aside is an exchange that starts from no earlier turn; its Commit keeps
// nothing, since its epoch is never the dialect's.
func (d *dialect) Aside(in request.Input) request.Exchange {
	user := message{Role: "user", Content: textContent(in.Text)}
	return &exchange{d: d, epoch: -1, turn: []message{user}, lean: []message{user}}
}

// lineRunes bounds one message of a summary's input: a long reply says
// less about the user than their own words.
const lineRunes = 600

// DroppedText is the newest n of the turns the last request left out, as
// "User: …" and "You: …" lines without the client_context blocks, cut to
// the newest maxRunes code points.
func (x *exchange) DroppedText(n, maxRunes int) string {
	end := min(x.dropped, len(x.base))
	var lines []string
	for _, t := range x.base[max(end-n, 0):end] {
		for _, m := range t.Msgs {
			text := strings.TrimSpace(plainText(m.Content))
			switch m.Role {
			case "user":
				text = strings.TrimSpace(afterContext(text))
				if text != "" {
					lines = append(lines, "User: "+text)
				}
			case "assistant":
				if text = strings.TrimSpace(request.StripThink(text)); text != "" {
					lines = append(lines, "You: "+text)
				}
			}
		}
	}
	// The newest lines whole, each cut to lineRunes, within maxRunes.
	used, from := 0, len(lines)
	for from > 0 {
		l := textcut.Cut(lines[from-1], lineRunes)
		n := utf8.RuneCountInString(l) + 1
		if used+n > maxRunes {
			break
		}
		used += n
		from--
		lines[from] = l
	}
	return strings.Join(lines[from:], "\n")
}

// plainText is a message content's text: a string, or its text parts.
func plainText(c json.RawMessage) string {
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s
	}
	var parts []part
	if json.Unmarshal(c, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// afterContext is a user message without its client_context block: the
// user's own words, "" for a turn with none (a poke, a check-in).
func afterContext(s string) string {
	const end = "</client_context>"
	if i := strings.Index(s, end); i >= 0 {
		return s[i+len(end):]
	}
	return s
}
