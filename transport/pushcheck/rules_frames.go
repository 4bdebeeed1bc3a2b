package pushcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
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
