package app

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/app/applog"
	"yui/transport"
	"yui/transport/dial"
)

// TestHistoryAndMemoryFilesArePrivateAndAtomic: the message history and
// the conversation memory are written like the settings: mode 0600 in a
// 0700 directory, through a temporary file renamed over the old one, so a
// failed write leaves the old file whole and no temporary file.
func TestHistoryAndMemoryFilesArePrivateAndAtomic(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct {
		name string
		save func([]byte) error
		path string
	}{
		{"history", historyFile{dir: dir, id: "p-1"}.Save, historyFile{dir: dir, id: "p-1"}.path()},
		{"memory", conversationFile{dir: dir, id: "p-1"}.Save, conversationFile{dir: dir, id: "p-1"}.path()},
	} {
		if err := f.save([]byte(`{"version":1}`)); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		fi, err := os.Stat(f.path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: file mode %v, %v", f.name, fi.Mode(), err)
		}
		di, err := os.Stat(filepath.Dir(f.path))
		if err != nil || di.Mode().Perm() != 0o700 {
			t.Fatalf("%s: directory mode %v, %v", f.name, di.Mode(), err)
		}
		if os.Geteuid() != 0 { // root writes anywhere
			os.Chmod(filepath.Dir(f.path), 0o500)
			if err := f.save([]byte(`{"version":1,"half":`)); err == nil {
				t.Errorf("%s: a save into a read-only directory succeeded", f.name)
			}
			os.Chmod(filepath.Dir(f.path), 0o700)
		}
		if b, _ := os.ReadFile(f.path); string(b) != `{"version":1}` {
			t.Errorf("%s: content %q", f.name, b)
		}
		entries, _ := os.ReadDir(filepath.Dir(f.path))
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("%s: temporary file left: %s", f.name, e.Name())
			}
		}
	}
}

// TestKeysEchoedByAServerStayOutOfTheLog runs a request transport with
// the app's log against a server that echoes the key in its error body,
// and one that cannot be reached at a URL that carries the key: the log
// file holds neither the key nor its URL-escaped form, and the failure
// shown to the user does not carry it.
func TestKeysEchoedByAServerStayOutOfTheLog(t *testing.T) {
	const key = "sk-echo/test+0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s (sent as %q)","type":"invalid_request_error","code":"%s"}}`,
			key, r.Header.Get("Authorization"), key)
	}))
	defer srv.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	logDir := t.TempDir()
	secrets := applog.NewSecrets(key)
	lg, err := applog.Open(applog.Options{Dir: logDir, Level: slog.LevelDebug, Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, base := range []string{srv.URL + "/v1", deadURL + "/v1/" + key + "?key=" + key} {
		tr, err := dial.New(dial.ChatCompletions, transport.Options{
			ChatBaseURL: base, Key: key, Model: "m", Logger: lg.Logger})
		if err != nil {
			t.Fatal(err)
		}
		tr.Start()
		tr.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "hi"})
		timeout := time.After(20 * time.Second)
	wait:
		for {
			select {
			case ev := <-tr.Events():
				lg.Logger.Debug("event", "ev", fmt.Sprintf("%+v", ev))
				if end, ok := ev.(*transport.TurnEndEvent); ok {
					shown = append(shown, end.ErrorText)
					break wait
				}
			case <-timeout:
				t.Fatal("no turn end")
			}
		}
		tr.Close()
	}
	lg.Close()
	data, err := os.ReadFile(lg.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range []string{key, "0123456789", "sk-echo%2Ftest", "test%2B0123"} {
		if bytes.Contains(data, []byte(form)) {
			t.Errorf("%q in the log:\n%s", form, data)
		}
		for _, s := range shown {
			if strings.Contains(s, form) {
				t.Errorf("%q in the error shown: %q", form, s)
			}
		}
	}
	if !bytes.Contains(data, []byte("[key]")) || !bytes.Contains(data, []byte(applog.Redacted)) {
		t.Errorf("the echoes were not logged redacted:\n%s", data)
	}
	if !bytes.Contains(data, []byte("request_error")) {
		t.Errorf("no request_error line:\n%s", data)
	}
}
