package messagewindow

import (
	"bytes"
	"log/slog"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"yui/pet/settings"
	"yui/windows/widgets"
)

// firstPreset is the id of the store's first preset (a fresh store has
// the default one).
func firstPreset(t testing.TB, b *fakeBackend) string {
	t.Helper()
	ps := b.Settings.Get().Presets
	if len(ps) == 0 {
		t.Fatal("the store has no preset")
	}
	return ps[0].ID
}

// editPreset changes preset id in the store, failing the test on error.
func editPreset(t testing.TB, b *fakeBackend, id string, fn func(*settings.Preset)) {
	t.Helper()
	if err := b.Settings.UpdatePreset(id, func(p *settings.Preset) error { fn(p); return nil }); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a log sink safe for the store's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// openMessages opens the message window of the first preset on a test
// app with Yui's theme and returns it with the preset id and the log.
func openMessages(t *testing.T, b *fakeBackend) (*MessageWindow, string, *syncBuffer) {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(widgets.Theme())
	id := firstPreset(t, b)
	logs := &syncBuffer{}
	w := NewMessageWindow(a, b, id, slog.New(slog.NewTextHandler(logs, nil)))
	w.Show()
	t.Cleanup(w.Close)
	w.win.Resize(fyne.NewSize(messagesWidth, messagesHeight))
	return w, id, logs
}
