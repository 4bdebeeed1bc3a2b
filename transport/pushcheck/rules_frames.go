package pushcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"yui/transport/textcut"
)

// baseTypes is the base set of frame types every client reads.
var baseTypes = []string{"ready", "render", "speech", "turn_end", "tool_status", "tool_call", "reasoning", "delegations"}

// Limits of docs/protocol/push-transport.md and docs/protocol/client-context.md the rules check.
const (
	maxTitle       = 120
	maxSummary     = 2000
	maxItems       = 50
	maxCaption     = 80
	maxFreeEmotion = 16
)

func evalJSON(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	total := 0
	for _, s := range ss {
		for i, fr := range s.Frames {
			total++
			if fr.Binary || fr.Obj == nil || fr.Type == "" {
				f.add("%s: %s", where(s.Probe, i), describe(fr))
			}
		}
	}
	return f.verdict(fmt.Sprintf("frames: %d, each a JSON object with a string type", total))
}

func evalTypes(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	for _, s := range ss {
		for i, fr := range s.Frames {
			if !readable(fr) || slices.Contains(baseTypes, fr.Type) || slices.Contains(s.Hello.Accepts, fr.Type) {
				continue
			}
			acc := "no accepts"
			if len(s.Hello.Accepts) > 0 {
				acc = fmt.Sprintf("accepts %q", s.Hello.Accepts)
			}
			f.add("%s: a %s frame to a client whose hello had %s", where(s.Probe, i), fr.Type, acc)
		}
	}
	return f.verdict("only the base set, plus error where hello accepted it")
}

// segmentIn is a render or speech segment as the rules read it.
type segmentIn struct {
	Cues   []map[string]json.RawMessage
	Speech string
}

// segmentsOf reads a render or speech frame's segments; problem says what
// is wrong with them, "" when they read.
func segmentsOf(fr frameIn) (segs []segmentIn, problem string) {
	raw, ok := fr.Obj["segments"]
	if !ok {
		return nil, "no segments"
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil || list == nil {
		return nil, "segments is not a list"
	}
	for k, item := range list {
		var seg map[string]json.RawMessage
		if json.Unmarshal(item, &seg) != nil || seg == nil {
			return nil, fmt.Sprintf("segment %d is not an object", k)
		}
		var out segmentIn
		if sp, ok := seg["speech"]; ok && json.Unmarshal(sp, &out.Speech) != nil {
			return nil, fmt.Sprintf("segment %d: speech is not a string", k)
		}
		if cs, ok := seg["cues"]; ok && string(cs) != "null" {
			if json.Unmarshal(cs, &out.Cues) != nil {
				return nil, fmt.Sprintf("segment %d: cues is not a list of objects", k)
			}
			for ci, cue := range out.Cues {
				if cue == nil {
					return nil, fmt.Sprintf("segment %d: cue %d is not an object", k, ci)
				}
				for _, field := range []string{"emotion_id", "motion_id", "emotion_text", "caption"} {
					if v, ok := cue[field]; ok {
						var s string
						if json.Unmarshal(v, &s) != nil {
							return nil, fmt.Sprintf("segment %d: cue %d: %s is not a string", k, ci, field)
						}
					}
				}
			}
		}
		segs = append(segs, out)
	}
	return segs, ""
}

func isRender(fr frameIn) bool { return readable(fr) && (fr.Type == "render" || fr.Type == "speech") }

func evalRenderShape(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	n := 0
	for _, s := range ss {
		for i, fr := range s.Frames {
			if !isRender(fr) {
				continue
			}
			n++
			if fr.TurnID == "" {
				f.add("%s: %s without a string turn_id", where(s.Probe, i), fr.Type)
			}
			if _, problem := segmentsOf(fr); problem != "" {
				f.add("%s: %s: %s", where(s.Probe, i), fr.Type, problem)
			}
			for _, field := range []string{"source", "reasoning"} {
				if _, present := fr.Obj[field]; present {
					if _, ok := fr.str(field); !ok {
						f.add("%s: %s: %s is not a string", where(s.Probe, i), fr.Type, field)
					}
				}
			}
		}
	}
	if n == 0 {
		return Skip, "the backend sent no render or speech frame; --text should ask for a spoken answer"
	}
	return f.verdict(fmt.Sprintf("render and speech frames: %d, segments and cues well formed", n))
}

func evalCues(ev *evidence) (Status, string) {
	ss, err := ev.sessions(general...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	cues := 0
	for _, s := range ss {
		for i, fr := range s.Frames {
			if !isRender(fr) {
				continue
			}
			segs, problem := segmentsOf(fr)
			if problem != "" {
				continue // render.shape reports it
			}
			v := s.vocabAt(i)
			for _, seg := range segs {
				for _, cue := range seg.Cues {
					cues++
					checkCue(&f, where(s.Probe, i), cue, v)
				}
			}
		}
	}
	if cues == 0 {
		return Skip, "the backend sent no cues; a backend that shows emotions sends them in render and speech segments"
	}
	return f.verdict(fmt.Sprintf("cues: %d, each from the vocabulary in force (empty lists honoured)", cues))
}

func checkCue(f *findings, at string, cue map[string]json.RawMessage, v Vocabulary) {
	get := func(k string) (string, bool) {
		raw, ok := cue[k]
		if !ok {
			return "", false
		}
		var s string
		json.Unmarshal(raw, &s)
		return s, s != ""
	}
	if e, ok := get("emotion_id"); ok && !slices.Contains(v.EmotionIDs, e) {
		f.add("%s: emotion_id %q is not in the declared emotion_ids %q", at, e, v.EmotionIDs)
	}
	if m, ok := get("motion_id"); ok && !slices.Contains(v.MotionIDs, m) {
		f.add("%s: motion_id %q is not in the declared motion_ids %q", at, m, v.MotionIDs)
	}
	if t, ok := get("emotion_text"); ok {
		if v.EmotionTextMode == "enum" {
			if _, in := v.EmotionTextMap[t]; !in {
				f.add("%s: emotion_text %q is not a tag of the enum-mode emotion_text_map", at, t)
			}
		} else if utf8.RuneCountInString(t) > maxFreeEmotion {
			f.add("%s: free-mode emotion_text of %d code points (at most %d)", at, utf8.RuneCountInString(t), maxFreeEmotion)
		}
	}
	if c, ok := get("caption"); ok && utf8.RuneCountInString(c) > maxCaption {
		f.add("%s: caption of %d code points (at most %d)", at, utf8.RuneCountInString(c), maxCaption)
	}
}

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

// jsonNumber reads a JSON number.
func jsonNumber(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// positiveInt reads a positive integer JSON number.
func positiveInt(raw json.RawMessage) (int, bool) {
	v, ok := jsonNumber(raw)
	if !ok || v < 1 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, false
	}
	return int(v), true
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

func evalSizeOut(ev *evidence) (Status, string) {
	// The size probe's full-size turn tempts a backend to echo it whole.
	ss, err := ev.sessions(append([]probeID{probeSize}, general...)...)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	largest := 0
	for _, s := range ss {
		for i, fr := range s.Frames {
			largest = max(largest, len(fr.Raw))
			if len(fr.Raw) > TextFrameLimit {
				f.add("%s: a %s frame of %d bytes (the client drops it unread)", where(s.Probe, i), fr.Type, len(fr.Raw))
			}
		}
	}
	return f.verdict(fmt.Sprintf("largest frame %d bytes (limit %d)", largest, TextFrameLimit))
}
