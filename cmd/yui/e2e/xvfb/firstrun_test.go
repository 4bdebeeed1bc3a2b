//go:build e2e

package xvfb

import (
	"net"
	"strconv"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

// localPorts are the ports a first start asks (transport/localserver).
var localPorts = []int{11434, 1234, 8080, 8000, 1337, 5001, 5000, 4891}

// serveOn binds h on 127.0.0.1:port, the real port a first start asks.
// A port something else on this machine already holds skips the test,
// saying which: the fake cannot stand in for it.
func serveOn(t *testing.T, port int, h requesttest.Handler) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Skipf("port %d is taken by something else on this machine (%v): the fake server cannot bind it", port, err)
	}
	requesttest.Serve(t, l, h)
}

// quietPorts skips the test when anything but the test's own fakes answers
// on a port a first start asks: the scan would find it too.
func quietPorts(t *testing.T, except ...int) {
	t.Helper()
next:
	for _, p := range localPorts {
		for _, e := range except {
			if p == e {
				continue next
			}
		}
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(p), 200*time.Millisecond); err == nil {
			c.Close()
			t.Skipf("something already listens on port %d, which a first start asks", p)
		}
	}
}

// Only LM Studio runs: a first start finds it, names it, and the first
// turn goes there with its first chat model.
func TestFirstStartFindsLMStudio(t *testing.T) {
	quietPorts(t)
	fake := requesttest.NewLocal("lmstudio", "qwen3-4b", "llama-3.2-1b-instruct")
	serveOn(t, 1234, fake.Handle)
	d := harness.StartXvfb(t, 1280, 800)
	a := startYui(t, d, "")
	a.WaitRecord(20*time.Second, "server_scan", map[string]string{"found": "1"})
	a.WaitRecord(5*time.Second, "server_found", map[string]string{"url": "http://127.0.0.1:1234/v1", "kind": "LM Studio", "model": "qwen3-4b"})
	a.WaitRecord(20*time.Second, "probe_ready", map[string]string{"model": "qwen3-4b", "server": "LM Studio"})
	d.Screenshot(t, "firststart-lmstudio")
	a.Talk("hello")
	harness.WaitFor(t, 20*time.Second, "the first turn", func() bool { return len(fake.Asked()) > 0 })
	if got := fake.Asked()[0]; got != "qwen3-4b" {
		t.Errorf("the first turn asked for %q, want qwen3-4b", got)
	}
	if _, ok := harness.FindRecord(a.Log(), "welcome_shown", nil); ok {
		t.Error("the welcome page opened though a server was found")
	}
}

// Ollama lists an embedding model first: the chat model is used.
func TestFirstStartSkipsEmbeddingModel(t *testing.T) {
	quietPorts(t)
	fake := requesttest.NewLocal("ollama", "nomic-embed-text:latest", "qwen3:8b")
	serveOn(t, 11434, fake.Handle)
	d := harness.StartXvfb(t, 1280, 800)
	a := startYui(t, d, "")
	a.WaitRecord(20*time.Second, "server_found", map[string]string{"kind": "Ollama", "model": "qwen3:8b"})
	a.WaitRecord(20*time.Second, "probe_ready", map[string]string{"model": "qwen3:8b", "server": "Ollama"})
	a.Talk("hello")
	harness.WaitFor(t, 20*time.Second, "the first turn", func() bool { return len(fake.Asked()) > 0 })
	if got := fake.Asked()[0]; got != "qwen3:8b" {
		t.Errorf("the first turn asked for %q, want qwen3:8b", got)
	}
}

// Ollama freshly installed, no model pulled: the pill says how to get
// one, and once one is pulled Yui takes it with no one pressing anything.
func TestFirstStartOllamaWithoutModels(t *testing.T) {
	quietPorts(t)
	fake := requesttest.NewLocal("ollama")
	serveOn(t, 11434, fake.Handle)
	d := harness.StartXvfb(t, 1280, 800)
	a := startYui(t, d, "")
	a.WaitRecord(20*time.Second, "server_found", map[string]string{"kind": "Ollama", "model": ""})
	a.WaitRecord(20*time.Second, "model_missing", map[string]string{"server": "Ollama", "hint": "run: ollama pull qwen3:4b"})
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"conn": "Ollama has no model · run: ollama pull qwen3:4b"})
	// The settings window lists the server with the same hint.
	a.WaitRecord(20*time.Second, "window_open", map[string]string{"window": "settings", "page": "welcome"})
	d.Screenshot(t, "firststart-ollama-nomodel")
	fake.SetModels("qwen3:4b")
	a.WaitRecord(40*time.Second, "probe_ready", map[string]string{"model": "qwen3:4b", "server": "Ollama"})
}

// A server started 5 s after Yui: the first start found nothing and
// welcomed the user; the pet becomes ready by itself, whether the server
// is the default preset's Ollama (its own probe asks again on the
// reconnect schedule) or LM Studio (the first start's scan runs again).
func TestServerStartedAfterYui(t *testing.T) {
	for _, c := range []struct {
		kind, name string
		port       int
		model      string
	}{{"lmstudio", "LM Studio", 1234, "qwen3-4b"}, {"ollama", "Ollama", 11434, "qwen3:8b"}} {
		t.Run(c.name, func(t *testing.T) {
			quietPorts(t)
			d := harness.StartXvfb(t, 1280, 800)
			a := startYui(t, d, "", "--stats-every", "1s")
			a.WaitRecord(20*time.Second, "welcome_shown", nil)
			a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"state": "offline"})
			// The user starts the server a little later: 5 s on the app's
			// own clock (its runtime_stats ticks), offline all along.
			a.WaitTicks(5)
			fake := requesttest.NewLocal(c.kind, c.model)
			serveOn(t, c.port, fake.Handle)
			a.WaitRecord(60*time.Second, "probe_ready", map[string]string{"model": c.model, "server": c.name})
			a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"conn": "ready · " + c.name + " · " + c.model})
		})
	}
}

// No server anywhere: the settings window opens on the welcome page (no
// red field), and "Try the demo" starts the demo in this run: the pet
// connects to the in-process simulator with no restart.
func TestWelcomeThenTryTheDemo(t *testing.T) {
	quietPorts(t)
	d := harness.StartXvfb(t, 1280, 800)
	a := startYui(t, d, "")
	a.WaitRecord(20*time.Second, "server_scan", map[string]string{"found": "0"})
	a.WaitRecord(20*time.Second, "welcome_shown", nil)
	a.WaitRecord(20*time.Second, "window_open", map[string]string{"window": "settings", "page": "welcome"})
	x, y := settingsWindow(t, d)
	d.Screenshot(t, "welcome")
	// "Try the demo", at the bottom of the left column (below the local
	// servers' list, whose Jan line says where its key is).
	harness.Click(t, d, x+75, y+663)
	a.WaitRecord(20*time.Second, "demo_started", nil)
	a.WaitRecord(20*time.Second, "ws_ready", map[string]string{"preset": "demo"})
	d.Screenshot(t, "demo-started")
	if _, ok := harness.FindRecord(a.Log(), "app_start", nil); !ok || a.Count("app_start", nil) != 1 {
		t.Errorf("Yui restarted")
	}
}
