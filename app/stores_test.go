package app

import (
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"yui/pet/settings"
	"yui/tools/relation"
	"yui/transport"
	"yui/transport/clock/clocktest"
)

// TestDragEndDoesNotWaitForTheDisk: the pet window saves its position at a
// drag's end on the UI goroutine. With a store whose disk hangs, the save
// returns at once, again and again; the hung write belongs to the store's
// timer, and the position reaches the state file once the disk answers.
func TestDragEndDoesNotWaitForTheDisk(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(1700000000, 0))
	hang := make(chan struct{})
	writing := make(chan struct{}, 8)
	var slow bool
	write := func(path string, data []byte, perm os.FileMode) error {
		if slow {
			writing <- struct{}{}
			<-hang
		}
		return settings.WriteFileAtomic(path, data, perm)
	}
	store, _, err := settings.Open(t.TempDir(), settings.Options{Clock: clk, WriteFile: write})
	if err != nil {
		t.Fatal(err)
	}
	id := store.Get().Presets[0].ID
	slow = true // Open's own save is done; the store's writes hang from now on
	pos := storePositions{store: store, id: id, log: slog.New(slog.DiscardHandler)}

	pos.SavePosition("1920x1080+0+0", 10, 20)
	fired := make(chan struct{})
	go func() { clk.Advance(settings.StateDelay); close(fired) }()
	<-writing // the store's timer writes, and the disk hangs

	ui := make(chan struct{})
	go func() { // the UI goroutine: more drags end while the disk hangs
		for i := range 5 {
			pos.SavePosition("1920x1080+0+0", 100+i, 200)
		}
		close(ui)
	}()
	select {
	case <-ui:
	case <-time.After(10 * time.Second):
		t.Fatal("a drag's end waited for the hung write")
	}
	if x, y, ok := pos.LoadPosition("1920x1080+0+0"); !ok || x != 104 || y != 200 {
		t.Errorf("position = %d,%d,%v", x, y, ok)
	}
	close(hang)
	<-fired
	store.Close()
	data, err := os.ReadFile(store.Dir() + "/state/" + id + ".json")
	if err != nil || !strings.Contains(string(data), `"x": 104`) {
		t.Errorf("state file after the disk answered: %v\n%s", err, data)
	}
}

// The settings store's relation score is what the relation tool keeps.
var _ relation.Scores = settings.RelationScore{}

// TestRelationToolPersists: a score the relation tool changes is in the
// settings store's state after a restart.
func TestRelationToolPersists(t *testing.T) {
	dir := t.TempDir()
	s, _ := openStore(t, dir)
	id := s.Get().Presets[0].ID
	tool := relation.New(s.Relation(id), nil)
	res := tool.Handler(t.Context(), transport.ToolCall{Name: relation.Name, Arguments: json.RawMessage(`{"delta":3,"reason":"nice"}`)})
	if res.Text != "ok: relation 53/100" {
		t.Errorf("result = %q", res.Text)
	}
	s.Close()
	s2, _ := openStore(t, dir)
	if got := s2.Relation(id).Score(); got != 53 {
		t.Errorf("score after reopen = %d", got)
	}
}

func openStore(t *testing.T, dir string) (*settings.Store, *settings.Notice) {
	t.Helper()
	s, n, err := settings.Open(dir, settings.Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(s.Close)
	return s, n
}
