package pushcheck

import (
	"bytes"
	"testing"
	"time"
)

// FuzzRules feeds arbitrary backend frames to every rule: none may panic,
// and each gives a verdict.
func FuzzRules(f *testing.F) {
	for _, seed := range []string{
		`{"type":"render","turn_id":"1","segments":[{"cues":[{"emotion_id":"happy"}],"speech":"hi"}]}` + "\n" + `{"type":"turn_end","turn_id":"1","usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}`,
		`{"type":"tool_call","id":"c","turn_id":"1","name":"look","arguments":{"at":"body"}}`,
		`{"type":"delegations","items":[{"id":"d","title":"t","started_at":1,"state":"done","status":"ok","ended_at":2,"summary":"s"}]}`,
		`{"type":"tool_status","turn_id":"1","state":"done","tool_id":"x"}` + "\n" + `{"type":"reasoning","turn_id":"1","delta":3}`,
		`{"type":"speech","turn_id":"1","segments":{"speech":1}}` + "\nnot json\n" + `{"type":"error","turn_id":"1","message":"a\nb"}`,
		`{"type":"tool_call","id":"c","name":7}` + "\n" + `{"type":"render","segments":[{"cues":[null,{"caption":5}]}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := Hello{ChatID: "yui-1", Accepts: []string{"error"}, Vocabulary: fullVocabulary(), Tools: toolDecls()}
		s := &session{hello: h, more: make(chan struct{}), vocabs: []vocabAt{{0, h.Vocabulary}}, marks: map[string]int{}}
		now := time.Unix(1e9, 0)
		s.frames = append(s.frames, parseFrame(now, false, []byte(`{"type":"ready","chat_id":"yui-1"}`)))
		s.turns = []sentTurn{{ID: "1"}}
		s.marks["stop"], s.marks["reset"] = 1, 1
		for i, line := range bytes.Split(data, []byte("\n")) {
			fr := parseFrame(now.Add(time.Duration(i)*time.Millisecond), false, line)
			s.frames = append(s.frames, fr)
			if fr.Type == "tool_call" {
				s.onCallLocked(fr, len(s.frames)-1)
			}
		}
		tr := s.snapshot()
		p := &probeResult{T: tr, B: tr, StopTurn: "1", TurnID: "1", StopSent: now, ProgressAt: now.Add(time.Second)}
		if len(tr.Calls) > 0 {
			p.Call = &tr.Calls[0]
		}
		cfg := Config{Key: "k"}.withDefaults()
		ev := &evidence{cfg: &cfg, probes: map[probeID]*probeResult{}}
		for _, pr := range probeOrder {
			ev.probes[pr.id] = p
		}
		for _, r := range rules {
			st, detail := r.eval(ev)
			if st != Pass && st != Fail && st != Skip || (st != Pass && detail == "") {
				t.Fatalf("%s: %q %q", r.ID, st, detail)
			}
		}
	})
}
