package facts

import (
	"strconv"
	"strings"
)

// Guidance tells the model when to call remember and when not to. It
// follows the card in every request of the request transports.
const Guidance = `Long-term memory: when the user shares something lasting about themselves (their name, people and pets in their life, likes, work or studies, plans and dates that matter), keep it with the remember tool, one short fact per call. Not small talk, passing moods or what is on the screen. Forget a fact that turns out wrong by its #id.`

// BlockTitle opens the block of remembered facts in the system prompt.
const BlockTitle = "What you remember about the user"

// Budget is the room for the block of facts: a tenth of the preset's
// context_window, 1,000 tokens when it is 0 (unknown).
func Budget(contextWindow int) int {
	if contextWindow <= 0 {
		return 1000
	}
	return contextWindow / 10
}

// Prompt is what follows the card in a request's system prompt: the
// guidance, and the facts in List order, all of it within room tokens as
// tokens counts them. The facts it puts in are marked used.
func (s *Store) Prompt(room int, tokens func(string) int) string {
	var b strings.Builder
	b.WriteString(Guidance)
	head := "\n\n" + BlockTitle + " (from earlier conversations; #id for forget):"
	used := tokens(Guidance) + tokens(head)
	var ids []int64
	var lines strings.Builder
	for _, f := range s.List() {
		line := "\n" + factLine(f)
		n := tokens(line)
		if used+n > room {
			// A shorter fact further down may still fit.
			continue
		}
		used += n
		lines.WriteString(line)
		ids = append(ids, f.ID)
	}
	if len(ids) == 0 {
		return b.String()
	}
	b.WriteString(head)
	b.WriteString(lines.String())
	if s.used(ids) {
		_ = s.save("use") // logged by save; a stale "last used" is all that is lost
	}
	return b.String()
}

// factLine is one fact in the block: "- #12 (2026-11-20) Has a cat named Miso".
func factLine(f Fact) string {
	about := ""
	switch f.About {
	case AboutWorld:
		about = " [about the world]"
	case AboutUs:
		about = " [about the two of you]"
	}
	return "- #" + strconv.FormatInt(f.ID, 10) + " (" + f.Created.Format("2006-01-02") + ")" + about + " " + f.Text
}
