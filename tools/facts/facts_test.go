package facts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/toolcall"
)

// memFiles is a facts file in memory.
type memFiles struct {
	mu    sync.Mutex
	data  []byte
	saves int
	aside [][]byte
	fail  error
}

func (m *memFiles) Load() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		return nil, fs.ErrNotExist
	}
	return bytes.Clone(m.data), nil
}

func (m *memFiles) Save(b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.data = bytes.Clone(b)
	m.saves++
	return nil
}

func (m *memFiles) KeepAside() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.aside = append(m.aside, m.data)
	m.data = nil
	return "facts.json.corrupt-1", nil
}

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func newStore(t *testing.T) (*Store, *memFiles, *clocktest.Fake, *bytes.Buffer) {
	t.Helper()
	f := &memFiles{}
	clk := clocktest.NewFake(t0)
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	return Open(f, clk, log), f, clk, &logs
}

func call(tl transport.Tool, args string) string {
	return tl.Handler(context.Background(), transport.ToolCall{Name: tl.Name, Arguments: json.RawMessage(args)}).Text
}

func TestRememberAndForgetResults(t *testing.T) {
	s, f, clk, _ := newStore(t)
	rem, fg := RememberTool(s), ForgetTool(s)
	if got := call(rem, `{"fact":"Has a cat named Miso","about":"user"}`); got != "ok: remembered #1" {
		t.Fatalf("remember: %q", got)
	}
	clk.Advance(time.Minute)
	if got := call(rem, `{"fact":"  has a CAT   named miso "}`); got != "ok: already remembered #1" {
		t.Fatalf("duplicate: %q", got)
	}
	if got := call(rem, `{"fact":"Exam on Friday","about":"world"}`); got != "ok: remembered #2" {
		t.Fatalf("second: %q", got)
	}
	if got := call(rem, `{"fact":"We laughed about the toaster","about":"us"}`); got != "ok: remembered #3" {
		t.Fatalf("third: %q", got)
	}
	for args, want := range map[string]string{
		`{}`:             "error: missing field fact",
		`{"fact":""}`:    "error: invalid field fact",
		`{"fact":"   "}`: "error: invalid field fact",
		`{"fact":3}`:     "error: invalid field fact",
		`{"fact":"` + strings.Repeat("é", 301) + `"}`: "error: invalid field fact",
		`{"fact":"x","about":"them"}`:                 "error: invalid field about",
		`{"fact":"x","extra":1}`:                      "error: invalid field extra",
		`[1]`:                                         "error: invalid field arguments",
	} {
		if got := call(rem, args); got != want {
			t.Errorf("remember %s: %q, want %q", args, got, want)
		}
	}
	if got := call(rem, `{"fact":"`+strings.Repeat("é", 300)+`"}`); got != "ok: remembered #4" {
		t.Errorf("300 code points: %q", got)
	}
	for args, want := range map[string]string{
		`{}`:                    "error: missing field id",
		`{"id":"2"}`:            "error: invalid field id",
		`{"id":1.5}`:            "error: invalid field id",
		`{"text":""}`:           "error: invalid field text",
		`{"id":99}`:             "error: no such memory",
		`{"text":"never said"}`: "error: no such memory",
		`{"id":2,"other":true}`: "error: invalid field other",
	} {
		if got := call(fg, args); got != want {
			t.Errorf("forget %s: %q, want %q", args, got, want)
		}
	}
	if got := call(fg, `{"id":2}`); got != "ok: forgot #2" {
		t.Fatalf("forget by id: %q", got)
	}
	if got := call(fg, `{"text":"HAS a cat named Miso"}`); got != "ok: forgot #1" {
		t.Fatalf("forget by text: %q", got)
	}
	if got := call(fg, `{"id":1}`); got != "error: no such memory" {
		t.Fatalf("forget twice: %q", got)
	}
	// A part of one fact's text names it when no fact has that text.
	if got := call(fg, `{"text":"the toaster"}`); got != "ok: forgot #3" {
		t.Fatalf("forget by part: %q", got)
	}
	// Saved, and read back by a new store (a restart).
	again := Open(f, clk, nil)
	if l := again.List(); len(l) != 1 || l[0].ID != 4 {
		t.Fatalf("after reopen: %+v", l)
	}
	if got := call(RememberTool(again), `{"fact":"new one"}`); got != "ok: remembered #5" {
		t.Fatalf("ids go on after a restart: %q", got)
	}
}

func TestForgetTextAmbiguous(t *testing.T) {
	s, _, _, _ := newStore(t)
	s.Remember("likes green tea", AboutUser)
	s.Remember("likes black tea", AboutUser)
	if got := call(ForgetTool(s), `{"text":"tea"}`); got != "error: no such memory" {
		t.Fatalf("a part of two facts: %q", got)
	}
}

func TestFileIsWrittenAsDocumented(t *testing.T) {
	s, f, _, _ := newStore(t)
	if _, _, err := s.Remember("Name is Aki", AboutUser); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version int `json:"version"`
		Facts   []map[string]any
	}
	if err := json.Unmarshal(f.data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != 1 || len(got.Facts) != 1 {
		t.Fatalf("file: %s", f.data)
	}
	for _, k := range []string{"id", "text", "about", "created", "last_used"} {
		if _, ok := got.Facts[0][k]; !ok {
			t.Errorf("fact has no %q: %s", k, f.data)
		}
	}
}

func TestBadFileIsKeptAside(t *testing.T) {
	f := &memFiles{data: []byte(`{"version":1,"facts":[{"id":1,"text":`)}
	var logs bytes.Buffer
	s := Open(f, clocktest.NewFake(t0), slog.New(slog.NewJSONHandler(&logs, nil)))
	if s.Len() != 0 || len(f.aside) != 1 || !strings.Contains(logs.String(), `"msg":"memory_facts_unreadable"`) ||
		!strings.Contains(logs.String(), "corrupt") {
		t.Fatalf("len %d, aside %d, logs %s", s.Len(), len(f.aside), logs.String())
	}
	if _, _, err := s.Remember("still works", ""); err != nil {
		t.Fatal(err)
	}
}

func TestEvictsLeastRecentlyUsed(t *testing.T) {
	s, _, clk, _ := newStore(t)
	for i := range MaxFacts {
		if _, _, err := s.Remember(fmt.Sprintf("fact %d", i), AboutUser); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
	}
	// Fact 0 is used again: fact 1 is now the least recently used.
	if _, already, _ := s.Remember("fact 0", AboutUser); !already {
		t.Fatal("fact 0 not found again")
	}
	clk.Advance(time.Second)
	s.Remember("one more", AboutUser)
	if s.Len() != MaxFacts {
		t.Fatalf("%d facts", s.Len())
	}
	for _, f := range s.List() {
		if f.Text == "fact 1" {
			t.Fatal("the least recently used fact stayed")
		}
	}
	if l := s.List(); l[0].Text != "one more" || l[1].Text != "fact 0" {
		t.Fatalf("order: %q, %q", l[0].Text, l[1].Text)
	}
}

// est counts as the request engine does, near enough for the tests:
// four bytes a token, rounded up.
func est(s string) int { return (len(s) + 3) / 4 }

func TestPromptKeepsWithinRoomNewestFirst(t *testing.T) {
	s, f, clk, _ := newStore(t)
	for i := range MaxFacts {
		s.Remember(fmt.Sprintf("fact number %d about the user's life", i), AboutUser)
		clk.Advance(time.Second)
	}
	saves := f.saves
	room := 204 // a tenth of 2048
	p := s.Prompt(room, est)
	if !strings.HasPrefix(p, Guidance) {
		t.Fatalf("prompt does not open with the guidance: %q", p)
	}
	block := strings.TrimPrefix(p, Guidance)
	if est(p) > room {
		t.Fatalf("guidance and facts of %d tokens, room %d", est(p), room)
	}
	if !strings.Contains(block, BlockTitle) || !strings.Contains(block, "fact number 499 ") {
		t.Fatalf("block: %q", block)
	}
	if strings.Contains(block, "fact number 0 ") {
		t.Fatal("the oldest fact is in a full block")
	}
	if f.saves != saves+1 {
		t.Fatalf("using facts first time: %d saves, want 1", f.saves-saves)
	}
	clk.Advance(time.Minute)
	s.Prompt(room, est)
	if f.saves != saves+1 {
		t.Fatal("a use a minute later wrote the file again")
	}
	clk.Advance(touchEvery)
	s.Prompt(room, est)
	if f.saves != saves+2 {
		t.Fatal("a use past touchEvery did not write the file")
	}
}

func TestPromptWithoutFactsIsGuidanceOnly(t *testing.T) {
	s, _, _, _ := newStore(t)
	if p := s.Prompt(1000, est); p != Guidance {
		t.Fatalf("%q", p)
	}
}

func TestEditClearExportImport(t *testing.T) {
	s, f, _, _ := newStore(t)
	id, _, _ := s.Remember("Likes tea", AboutUser)
	if err := s.Edit(id, "Likes green tea", AboutUser); err != nil {
		t.Fatal(err)
	}
	if err := s.Edit(99, "x", AboutUser); !errors.Is(err, ErrNoSuchMemory) {
		t.Fatalf("edit unknown: %v", err)
	}
	if err := s.Edit(id, " ", AboutUser); !errors.Is(err, ErrEmpty) {
		t.Fatalf("edit empty: %v", err)
	}
	if !strings.Contains(s.Prompt(1000, est), "Likes green tea") {
		t.Fatal("the edit is not in the prompt")
	}
	data, err := s.Export()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Clear(); err != nil || s.Len() != 0 {
		t.Fatalf("clear: %v, %d left", err, s.Len())
	}
	if strings.Contains(string(f.data), "tea") {
		t.Fatal("the cleared facts are still in the file")
	}
	n, err := s.Import(data)
	if err != nil || n != 1 {
		t.Fatalf("import: %d, %v", n, err)
	}
	if n, _ := s.Import(data); n != 0 {
		t.Fatalf("import again added %d", n)
	}
	if n, err := s.Import([]byte(`[{"text":"Plays the cello"},{"text":""},{"text":"Likes GREEN tea"}]`)); err != nil || n != 1 {
		t.Fatalf("import a list: %d, %v", n, err)
	}
	if _, err := s.Import([]byte(`{"facts":`)); err == nil {
		t.Fatal("a broken import was read")
	}
	if s.Len() != 2 {
		t.Fatalf("%d facts", s.Len())
	}
}

func TestWatchAndFailedSave(t *testing.T) {
	s, f, _, logs := newStore(t)
	changes := 0
	stop := s.Watch(func() { changes++ })
	s.Remember("a", AboutUser)
	f.fail = errors.New("disk full")
	if got := call(RememberTool(s), `{"fact":"b"}`); got != "ok: remembered #2" {
		t.Fatalf("a fact whose write failed: %q", got)
	}
	if !strings.Contains(logs.String(), "memory_save_failed") {
		t.Fatal("the failed write is not logged")
	}
	f.fail = nil
	s.Remember("c", AboutUser)
	if !strings.Contains(string(f.data), `"b"`) {
		t.Fatal("the next write did not carry the fact")
	}
	stop()
	s.Remember("d", AboutUser)
	if changes != 3 {
		t.Fatalf("%d changes seen", changes)
	}
}

func TestSchemasCompile(t *testing.T) {
	for _, p := range []string{RememberParameters, ForgetParameters} {
		if _, err := toolcall.Compile(json.RawMessage(p)); err != nil {
			t.Fatal(err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"next_id":3,"facts":[{"id":1,"text":"a","about":"us"},{"id":1,"text":"b"}]}`))
	f.Add([]byte(`[{"text":"x"}]`))
	f.Add([]byte(`{"facts":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		facts, next, err := Decode(data)
		if err != nil {
			return
		}
		seen := map[int64]bool{}
		for _, x := range facts {
			if x.ID <= 0 || x.ID >= next || seen[x.ID] || x.Text == "" {
				t.Fatalf("fact %+v, next %d", x, next)
			}
			seen[x.ID] = true
		}
		if len(facts) > MaxFacts {
			t.Fatalf("%d facts", len(facts))
		}
	})
}
