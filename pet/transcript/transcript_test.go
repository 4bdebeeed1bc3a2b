package transcript

import (
	"io/fs"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
)

type memStore struct {
	mu    sync.Mutex
	data  []byte
	saves int
	aside int
}

func (m *memStore) Load() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		return nil, fs.ErrNotExist
	}
	return m.data, nil
}

func (m *memStore) Save(d []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data = append([]byte(nil), d...)
	m.saves++
	return nil
}

func (m *memStore) KeepAside() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.aside++
	m.data = nil
	return "aside", nil
}

func TestAddGrowAndSubscribe(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	l := Open(Options{Clock: clk})
	l.Add(Entry{Kind: KindUser, Trigger: "user message", Text: "hi"})
	var got []Change
	history, cancel := l.Subscribe(func(c Change) { got = append(got, c) })
	if len(history) != 1 || history[0].Seq != 1 || history[0].Text != "hi" {
		t.Fatalf("history = %+v", history)
	}
	r := l.Add(Entry{Kind: KindReply, TurnID: "t1", Text: "Hello."})
	l.Grow(r.Seq, func(e *Entry) {
		e.Text += " How are you?"
		e.Cues = append(e.Cues, transport.Cue{EmotionID: "happy"})
		e.Seq = 99 // ignored
	})
	cancel()
	l.Add(Entry{Kind: KindError, Text: "late"})
	if len(got) != 2 || got[0].Op != Added || got[1].Op != Grown || got[1].Entry.Seq != 2 ||
		got[1].Entry.Text != "Hello. How are you?" || len(got[1].Entry.Cues) != 1 {
		t.Fatalf("changes = %+v", got)
	}
	if e, ok := l.Last(KindReply, "t1"); !ok || e.Seq != 2 {
		t.Errorf("Last = %+v %v", e, ok)
	}
}

func TestBoundedAndSavedAcrossRestart(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	st := &memStore{}
	l := Open(Options{Storage: st, Max: 3, Clock: clk, SaveDelay: time.Second})
	for i := range 5 {
		l.Add(Entry{Kind: KindUser, Text: string(rune('a' + i))})
	}
	if st.saves != 0 {
		t.Fatalf("saved before the delay")
	}
	clk.Advance(time.Second)
	if st.saves != 1 {
		t.Fatalf("saves = %d, want one gathered write", st.saves)
	}
	r := l.Add(Entry{Kind: KindReasoning, Text: "hmm", Streaming: true})
	l.Close()
	l2 := Open(Options{Storage: st, Max: 3, Clock: clk})
	es := l2.Entries()
	if len(es) != 3 || es[0].Text != "d" || es[2].Seq != r.Seq || es[2].Streaming {
		t.Fatalf("after restart = %+v", es)
	}
	if n := l2.Add(Entry{Kind: KindUser}); n.Seq != r.Seq+1 {
		t.Errorf("seq after restart = %d, want %d", n.Seq, r.Seq+1)
	}
}

func TestUnreadableHistoryKeptAside(t *testing.T) {
	st := &memStore{data: []byte("{not json")}
	l := Open(Options{Storage: st})
	if len(l.Entries()) != 0 || st.aside != 1 {
		t.Fatalf("entries %d, aside %d", len(l.Entries()), st.aside)
	}
}

func TestClearTellsSubscribers(t *testing.T) {
	l := Open(Options{})
	l.Add(Entry{Kind: KindUser})
	var ops []Op
	l.Subscribe(func(c Change) { ops = append(ops, c.Op) })
	l.Clear()
	if len(l.Entries()) != 0 || len(ops) != 1 || ops[0] != Cleared {
		t.Fatalf("ops = %v", ops)
	}
	if l.Grow(1, func(*Entry) {}) {
		t.Error("grew a cleared entry")
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"version":1,"entries":[{"seq":1,"kind":"user","text":"hi"},{"seq":1,"kind":"reply"}]}`))
	f.Add([]byte(`{"entries":[{"seq":3,"kind":"reply","cues":[{"emotion_id":"x"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := Open(Options{Storage: &memStore{data: data}, Max: 10})
		es := l.Entries()
		for i := 1; i < len(es); i++ {
			if es[i].Seq <= es[i-1].Seq {
				t.Fatalf("seq not increasing: %+v", es)
			}
		}
		if e := l.Add(Entry{Kind: KindUser}); len(es) > 0 && e.Seq <= es[len(es)-1].Seq {
			t.Fatalf("new seq %d not after %d", e.Seq, es[len(es)-1].Seq)
		}
	})
}
