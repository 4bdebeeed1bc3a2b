package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
)

func call(args string) transport.ToolCall {
	return transport.ToolCall{ID: "c1", TurnID: "t1", Name: Name, Arguments: json.RawMessage(args)}
}

func TestArgumentsAreCheckedBeforeAnyBrowserRuns(t *testing.T) {
	b := New(Options{Status: func(string, string) { t.Error("a status for refused arguments") }})
	for args, want := range map[string]string{
		`{"action":"read","url":"file:///etc/passwd"}`:   "error: invalid field url",
		`{"action":"read","url":"javascript:alert(1)"}`:  "error: invalid field url",
		`{"action":"read","url":"http://"}`:              "error: invalid field url",
		`{"action":"print","url":"https://example.com"}`: "error: invalid field action",
		`{"action":"read"}`:                              "error: missing field url",
		`{"url":"https://example.com"}`:                  "error: missing field action",
		`{"action":"read","url":7}`:                      "error: invalid field url",
		`{"action":"read","url":"https://a.b","x":1}`:    "error: invalid field x",
		`[]`: "error: invalid field arguments",
	} {
		if got := b.Handle(context.Background(), call(args)).Text; got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
}

func TestFitTextKeepsTheJSONStringWithinTheBudget(t *testing.T) {
	s := strings.Repeat("a\"\n\x01é", 50000)
	got := fitText(s, 10000)
	b, _ := json.Marshal(got)
	if len(b) > 10000 || len(got) < 1000 || !strings.HasSuffix(got, "…") {
		t.Fatalf("fitted to %d bytes as JSON (%d bytes of text)", len(b), len(got))
	}
	if fitText("short", 100) != "short" {
		t.Fatal("a short text was cut")
	}
}

// TestReadAndScreenshotAPage runs the browser found on this machine
// against a loopback page.
func TestReadAndScreenshotAPage(t *testing.T) {
	path, ok := Find()
	if !ok {
		t.Skip("no Chromium-family browser on this machine")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Shopping list</title></head><body><h1>Milk</h1><p>Eggs and tea.</p><script>document.title += "!"</script></body></html>`)
	}))
	defer srv.Close()
	var mu sync.Mutex
	var states []string
	b := New(Options{ExecPath: path, AllowLocal: allowLocal, Status: func(turn, state string) {
		mu.Lock()
		defer mu.Unlock()
		states = append(states, turn+" "+state)
	}})
	// Each call gets its own wait, as the tool-call runner gives it
	// (transport/toolcall/runner.go): one shared deadline ran out on a
	// loaded machine, where starting the browser alone took 12 s.
	handle := func(args string) transport.ToolResult {
		ctx, cancel := context.WithTimeout(context.Background(), Wait)
		defer cancel()
		return b.Handle(ctx, call(args))
	}
	start := time.Now()
	res := handle(`{"action":"read","url":"` + srv.URL + `"}`)
	if res.Text != "title: Shopping list!\n\nMilk\n\nEggs and tea." {
		t.Fatalf("read = %q", res.Text)
	}
	t.Logf("read in %v", time.Since(start))
	res = handle(`{"action":"screenshot","url":"` + srv.URL + `"}`)
	if res.Text != "title: Shopping list!" || len(res.Images) != 1 || res.Images[0].MIME != "image/png" || len(res.Images[0].Data) < 1000 {
		t.Fatalf("screenshot = %q with %d images", res.Text, len(res.Images))
	}
	res = handle(`{"action":"read","url":"http://127.0.0.1:1/"}`)
	if !strings.HasPrefix(res.Text, "error: the page could not be opened: ") {
		t.Fatalf("a closed port: %q", res.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"t1 running", "t1 done", "t1 running", "t1 done", "t1 running", "t1 failed"}
	if strings.Join(states, ",") != strings.Join(want, ",") {
		t.Fatalf("states %v, want %v", states, want)
	}
}

func FuzzParseArgs(f *testing.F) {
	f.Add(`{"action":"read","url":"https://example.com"}`)
	f.Add(`{"action":"screenshot","url":"http://127.0.0.1:8080/a?b=c#d"}`)
	f.Add(`{"action":"read","url":"file:///"}`)
	f.Add(`{"action":null}`)
	f.Fuzz(func(t *testing.T, raw string) {
		action, u, msg := parseArgs(json.RawMessage(raw))
		if msg == "" && (action != "read" && action != "screenshot" || !strings.HasPrefix(strings.ToLower(u), "http")) {
			t.Fatalf("accepted %q: %q %q", raw, action, u)
		}
		if msg != "" && !strings.HasPrefix(msg, "error: ") {
			t.Fatalf("message %q", msg)
		}
	})
}
