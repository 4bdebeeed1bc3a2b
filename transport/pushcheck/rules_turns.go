package pushcheck

import (
	"encoding/json"
	"fmt"

	"yui/transport/textcut"
)

// turnEnds maps each turn id to the indexes of its readable turn_end frames.
func turnEnds(t transcript) map[string][]int {
	m := map[string][]int{}
	for i, fr := range t.Frames {
		if readable(fr) && fr.Type == "turn_end" && fr.TurnID != "" {
			m[fr.TurnID] = append(m[fr.TurnID], i)
		}
	}
	return m
}

// afterEnd reports whether frame i of turn id comes after the turn's first turn_end.
func afterEnd(ends map[string][]int, id string, i int) bool {
	e := ends[id]
	return len(e) > 0 && i > e[0]
}

func evalOrder(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	for _, s := range ss {
		ends := turnEnds(s.transcript)
		for i, fr := range s.Frames {
			if isRender(fr) && fr.TurnID != "" && afterEnd(ends, fr.TurnID, i) {
				f.add("%s: %s of turn %s after its turn_end", where(s.Probe, i), fr.Type, fr.TurnID)
			}
		}
	}
	return f.verdict("every render and speech frame before its turn's turn_end")
}

func evalTurnEnd(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	turns := 0
	for _, s := range ss {
		ends := turnEnds(s.transcript)
		for i, fr := range s.Frames {
			if readable(fr) && fr.Type == "turn_end" && fr.TurnID == "" {
				f.add("%s: turn_end without a string turn_id", where(s.Probe, i))
			}
		}
		for _, st := range s.Turns {
			turns++
			if len(ends[st.ID]) == 0 {
				f.add("%s: turn %s got no turn_end within %v of its last frame", s.Probe, st.ID, ev.cfg.TurnWait)
			}
		}
		for id, e := range ends {
			if len(e) > 1 {
				f.add("%s: turn %s got %d turn_end frames", s.Probe, id, len(e))
			}
		}
	}
	return f.verdict(fmt.Sprintf("turns: %d, one turn_end each", turns))
}

func evalError(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeMain)
	if err != nil {
		return probeErr(err)
	}
	s := ss[0]
	var f findings
	n := 0
	ends := turnEnds(s.transcript)
	for i, fr := range s.Frames {
		if !readable(fr) || fr.Type != "error" {
			continue
		}
		n++
		at := where(s.Probe, i)
		msg, ok := fr.str("message")
		switch {
		case fr.TurnID == "":
			f.add("%s: error without a string turn_id", at)
		case !ok:
			f.add("%s: error without a string message", at)
		case msg == "":
			f.add("%s: error with an empty message", at)
		case containsLineBreak(msg):
			f.add("%s: error message of more than one line", at)
		}
		if fr.TurnID == "" {
			continue
		}
		if afterEnd(ends, fr.TurnID, i) {
			f.add("%s: error of turn %s after its turn_end", at, fr.TurnID)
		} else if len(ends[fr.TurnID]) == 0 {
			f.add("%s: error of turn %s, and no turn_end followed", at, fr.TurnID)
		}
	}
	if n == 0 {
		return Skip, fmt.Sprintf("no turn failed in %d turns (a backend that sends no error frames renders its failure line instead, which is allowed); make one fail with --fail-text, a text your backend fails on", len(s.Turns))
	}
	return f.verdict(fmt.Sprintf("error frames: %d, each one line, each before its turn's turn_end", n))
}

func containsLineBreak(s string) bool {
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}

func evalUsage(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	n := 0
	for _, s := range ss {
		for i, fr := range s.Frames {
			if !readable(fr) || fr.Type != "turn_end" {
				continue
			}
			raw, ok := fr.Obj["usage"]
			if !ok || string(raw) == "null" {
				continue
			}
			n++
			var u map[string]json.RawMessage
			if json.Unmarshal(raw, &u) != nil || u == nil {
				f.add("%s: usage is not an object: %s", where(s.Probe, i), textcut.Cut(string(raw), 60))
				continue
			}
			for _, k := range []string{"input_tokens", "output_tokens", "total_tokens"} {
				v, ok := jsonNumber(u[k])
				switch {
				case u[k] == nil:
					f.add("%s: usage without %s", where(s.Probe, i), k)
				case !ok:
					f.add("%s: usage %s is %s, not a number", where(s.Probe, i), k, textcut.Cut(string(u[k]), 30))
				case v < 0:
					f.add("%s: usage %s is negative", where(s.Probe, i), k)
				}
			}
		}
	}
	if n == 0 {
		return Skip, "no turn_end carried usage (optional: absent when the backend has no usage for the turn)"
	}
	return f.verdict(fmt.Sprintf("usage objects: %d, each with input_tokens, output_tokens and total_tokens as numbers", n))
}
