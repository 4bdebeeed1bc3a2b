package settings

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
)

// v1File is a settings file as Yui wrote it before the state files: two
// presets with positions and relation, and 200 delegation history items
// for the first.
func v1File(t *testing.T) ([]byte, []transport.Delegation) {
	t.Helper()
	var hist []transport.Delegation
	for i := range 200 {
		hist = append(hist, transport.Delegation{ID: fmt.Sprintf("d-%03d", i), Title: fmt.Sprintf("task %d", i),
			StartedAt: int64(1000 + i), State: "done", Status: "ok", Summary: "answered " + fmt.Sprint(i)})
	}
	histJSON, err := json.Marshal(hist)
	if err != nil {
		t.Fatal(err)
	}
	data := fmt.Sprintf(`{
  "version": 1,
  "active_preset": "p-00000001",
  "presets": [
    {"id": "p-00000001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
     "chat_base_url": "http://127.0.0.1:11434/v1", "key": "k-one", "chat_id": "yui-00000001",
     "positions": {"1920x1080+0+0": {"x": 1510, "y": 820}, "2560x1440+0+0|1920x1080+2560+0": {"x": 3000, "y": 100}},
     "relation": 73, "future_field": [1, 2]},
    {"id": "p-00000002", "name": "Mochi", "enabled": false, "character": "yui", "chat_api": "push",
     "chat_base_url": "ws://127.0.0.1:8646", "chat_id": "yui-00000002",
     "positions": {}, "relation": 12}
  ],
  "screen_look": "allowed",
  "log_level": "debug",
  "delegation_history": {"p-00000001": %s, "p-00000002": []},
  "top_future": "kept"
}
`, histJSON)
	return []byte(data), hist
}

// TestMigrateVersion1MovesLearnedState: a settings file written by the
// Yui before state files keeps every setting, its positions, relation and
// 200 delegation items move into the state files, the settings file is
// rewritten without them, and the old file is kept aside as it was.
func TestMigrateVersion1MovesLearnedState(t *testing.T) {
	dir := t.TempDir()
	old, hist := v1File(t)
	if err := os.WriteFile(filepath.Join(dir, FileName), old, 0o600); err != nil {
		t.Fatal(err)
	}
	s, n := open(t, dir)
	if n != nil {
		t.Errorf("notice for a clean migration: %+v", n)
	}
	kept := filepath.Join(dir, FileName+".v1-1700000000")
	if s.Migrated() != kept {
		t.Errorf("Migrated = %q, want %q", s.Migrated(), kept)
	}
	// The copy keeps everything but the keys, which stay in the current
	// file until the keyring takes them.
	var wantKept, gotKept map[string]any
	json.Unmarshal(old, &wantKept)
	wantKept["presets"].([]any)[0].(map[string]any)["key"] = ""
	if got, err := os.ReadFile(kept); err != nil || json.Unmarshal(got, &gotKept) != nil || !reflect.DeepEqual(gotKept, wantKept) {
		t.Errorf("old file not kept aside as it was (but its keys): %v\n%s", err, got)
	}

	check := func(s *Store, when string) {
		t.Helper()
		st := s.Get()
		if st.Version != CurrentVersion || st.ScreenLook != ScreenLookAllowed || st.LogLevel != "debug" || st.ActivePreset != "p-00000001" {
			t.Errorf("%s: globals %+v", when, st)
		}
		a, _ := st.Preset("p-00000001")
		b, _ := st.Preset("p-00000002")
		if a == nil || b == nil {
			t.Fatalf("%s: presets %v", when, st.Presets)
		}
		wantPos := map[string]Position{"1920x1080+0+0": {1510, 820}, "2560x1440+0+0|1920x1080+2560+0": {3000, 100}}
		if !reflect.DeepEqual(a.Positions, wantPos) || a.Relation != 73 || a.Key != "k-one" || strings.Join(strings.Fields(string(a.Extra["future_field"])), "") != "[1,2]" {
			t.Errorf("%s: preset A %+v positions %v relation %d extra %s", when, a, a.Positions, a.Relation, a.Extra)
		}
		if len(b.Positions) != 0 || b.Relation != 12 || b.Enabled || b.ChatAPI != ChatAPIPush {
			t.Errorf("%s: preset B %+v relation %d", when, b, b.Relation)
		}
		if got := s.DelegationStore("p-00000001").LoadDelegations(); !reflect.DeepEqual(got, hist) {
			t.Errorf("%s: history holds %d items, want the 200 written", when, len(got))
		}
		if string(st.Extra["top_future"]) != `"kept"` {
			t.Errorf("%s: unknown top-level field lost: %s", when, st.Extra)
		}
	}
	check(s, "after migration")

	// The settings file holds only what the user set.
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"positions"`, `"relation"`, `"delegation_history"`, `"d-199"`} {
		if strings.Contains(string(data), k) {
			t.Errorf("settings file still holds %s:\n%s", k, data)
		}
	}
	if !strings.Contains(string(data), `"version": 2`) {
		t.Errorf("settings file not at version 2:\n%s", data)
	}
	// Each preset has its state file, the user's own.
	for _, id := range []string{"p-00000001", "p-00000002"} {
		fi, err := os.Stat(s.statePath(id))
		if err != nil {
			t.Fatalf("state file of %s: %v", id, err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("state file of %s has mode %v", id, fi.Mode().Perm())
		}
	}

	// A restart reads the state files back, and migrates nothing again.
	s.Close()
	s2, n2 := open(t, dir)
	if n2 != nil || s2.Migrated() != "" {
		t.Errorf("second start: notice %+v, migrated %q", n2, s2.Migrated())
	}
	check(s2, "after restart")
}

// TestStateWritesCoalesced: learned changes write nothing at once, then
// once per preset StateDelay later; the settings file is not rewritten;
// a moved pet tells no subscriber.
func TestStateWritesCoalesced(t *testing.T) {
	dir := t.TempDir()
	clk := clocktest.NewFake(time.Unix(1700000000, 0))
	var mu sync.Mutex
	writes := map[string]int{}
	write := func(path string, data []byte, perm os.FileMode) error {
		mu.Lock()
		writes[filepath.Base(path)]++
		mu.Unlock()
		return WriteFileAtomic(path, data, perm)
	}
	s, _, err := Open(dir, Options{Rand: &seqRand{}, Now: fixedNow, Clock: clk, WriteFile: write})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	id := s.Get().Presets[0].ID
	var changes int
	cancel := s.Subscribe(func(Change) { changes++ })
	defer cancel()

	// A drag: many moves, one end.
	for i := range 30 {
		if err := s.SavePosition(id, "1920x1080+0+0", 100+i, 200); err != nil {
			t.Fatal(err)
		}
	}
	// A burst of delegation frames and relation changes.
	for i := range 20 {
		h := []transport.Delegation{{ID: "d-1", Title: "t", StartedAt: 1, State: "running", Summary: fmt.Sprint(i)}}
		if err := s.DelegationStore(id).SaveDelegations(h); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Relation(id).AddScore(5); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(writes) != 1 || writes[FileName] != 1 { // Open's first save only
		t.Errorf("writes before the delay: %v", writes)
	}
	mu.Unlock()
	if clk.Pending() != 1 {
		t.Fatalf("%d timers armed, want one", clk.Pending())
	}
	clk.Advance(StateDelay)
	mu.Lock()
	if writes[id+".json"] != 1 || writes[FileName] != 1 {
		t.Errorf("writes after the delay: %v", writes)
	}
	mu.Unlock()
	var f stateFile
	data, _ := os.ReadFile(s.statePath(id))
	if err := decodeState(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Positions["1920x1080+0+0"] != (Position{129, 200}) || f.Relation != 55 || len(f.DelegationHistory) != 1 || f.DelegationHistory[0].Summary != "19" {
		t.Errorf("state file: %s", data)
	}
	if changes != 21 { // 20 history saves and one relation change; no position
		t.Errorf("subscribers saw %d changes, want 21", changes)
	}
	// The same position again writes nothing.
	if err := s.SavePosition(id, "1920x1080+0+0", 129, 200); err != nil || clk.Pending() != 0 {
		t.Errorf("same position: %v, %d timers", err, clk.Pending())
	}
}

// TestSlowStoreLeavesCallerFree: while a state write hangs on a slow disk,
// a drag's end (SavePosition, as the pet window calls it on the UI
// goroutine) returns at once; the hung write finishes later and the next
// one carries the newest position.
func TestSlowStoreLeavesCallerFree(t *testing.T) {
	dir := t.TempDir()
	clk := clocktest.NewFake(time.Unix(1700000000, 0))
	started := make(chan string, 4)
	release := make(chan struct{})
	slow := false
	var mu sync.Mutex
	write := func(path string, data []byte, perm os.FileMode) error {
		mu.Lock()
		hold := slow
		mu.Unlock()
		if hold {
			started <- filepath.Base(path)
			<-release
		}
		return WriteFileAtomic(path, data, perm)
	}
	s, _, err := Open(dir, Options{Rand: &seqRand{}, Now: fixedNow, Clock: clk, WriteFile: write})
	if err != nil {
		t.Fatal(err)
	}
	id := s.Get().Presets[0].ID
	mu.Lock()
	slow = true
	mu.Unlock()
	if err := s.SavePosition(id, "L", 1, 1); err != nil {
		t.Fatal(err)
	}
	flushed := make(chan struct{})
	go func() { clk.Advance(StateDelay); close(flushed) }() // the timer's goroutine
	if got := <-started; got != id+".json" {
		t.Fatalf("slow write of %s", got)
	}
	// The write hangs; the UI goroutine drags and drops again.
	done := make(chan error, 1)
	go func() { done <- s.SavePosition(id, "L", 2, 2) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SavePosition waited for the disk")
	}
	if x, y := s.Get().Presets[0].Positions["L"].X, s.Get().Presets[0].Positions["L"].Y; x != 2 || y != 2 {
		t.Errorf("position in memory = %d,%d", x, y)
	}
	close(release)
	<-flushed
	s.Close() // writes the second drop (no delay: the store closes)
	var f stateFile
	data, _ := os.ReadFile(s.statePath(id))
	if err := decodeState(data, &f); err != nil || f.Positions["L"] != (Position{2, 2}) {
		t.Errorf("state after the slow write: %s %v", data, err)
	}
}

// FuzzDecodeState: a state file of any content decodes or fails cleanly.
func FuzzDecodeState(f *testing.F) {
	f.Add([]byte(`{"version":1,"positions":{"L":{"x":1,"y":2}},"relation":60,"delegation_history":[{"id":"d"}]}`))
	f.Add([]byte(`{"version":9}`))
	f.Add([]byte(`{"relation":"x"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st stateFile
		if err := decodeState(data, &st); err != nil {
			return
		}
		if _, err := encodeState(Preset{ID: "p", Learned: st.Learned}, st.DelegationHistory); err != nil {
			t.Fatalf("decoded state does not encode: %v", err)
		}
	})
}

// TestStatePathStaysInStateDir: a hand-written preset id cannot name a
// file outside the state directory.
func TestStatePathStaysInStateDir(t *testing.T) {
	s, _ := open(t, t.TempDir())
	for _, id := range []string{"../../x", `..\x`, "a/b", ".."} {
		if got := filepath.Dir(s.statePath(id)); got != filepath.Join(s.Dir(), StateDir) {
			t.Errorf("id %q: state file in %s", id, got)
		}
	}
}
