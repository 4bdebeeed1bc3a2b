package chatcompletions_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/clock/clocktest"
	"yui/transport/localserver"
	rt "yui/transport/request/requesttest"
)

// nextState waits for the next state event other than connecting.
func nextState(t *testing.T, tr transport.Transport) transport.StateEvent {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev := <-tr.Events():
			if s, ok := ev.(*transport.StateEvent); ok && s.State != transport.StateConnecting {
				return *s
			}
		case <-deadline:
			t.Fatalf("no state; state %v", tr.State())
		}
	}
}

// waitArmed waits until the fake clock has had n timers armed: the
// transport's sleep before its next probe.
func waitArmed(t *testing.T, clk *clocktest.Fake, n int) {
	t.Helper()
	if !clk.WaitArmed(n, 5*time.Second) {
		t.Fatalf("%d timers armed, want %d", clk.Armed(), n)
	}
}

// A server started after Yui: the probe runs again on the reconnect
// schedule (1 s, 2 s, …), the offline state says when, and the transport
// becomes ready by itself once the server answers.
func TestProbeAgainUntilTheServerIsUp(t *testing.T) {
	addr := closedAddr(t)
	clk := clocktest.NewFake(time.Unix(1_800_000_000, 0))
	tr, err := chatcompletions.New(transport.Options{ChatBaseURL: "http://" + addr + "/v1", Vocabulary: rt.Vocabulary,
		Probe: true, Clock: clk,
		Server: func(context.Context) transport.ServerInfo {
			return transport.ServerInfo{Name: "Ollama", NoModelHint: "run: ollama pull qwen3:4b"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Start()
	s := nextState(t, tr)
	if s.State != transport.StateOffline || s.RetryIn != time.Second || !s.RetryAt.Equal(clk.Now().Add(time.Second)) {
		t.Fatalf("first probe: %+v", s)
	}
	waitArmed(t, clk, 1)
	clk.Advance(time.Second)
	if s := nextState(t, tr); s.State != transport.StateOffline || s.RetryIn != 2*time.Second {
		t.Fatalf("second probe: %+v", s)
	}

	// The server comes up, first with no model pulled: the hint, and the
	// schedule goes on; then with an embedding model and a chat model.
	var models atomic.Value
	models.Store(`{"object":"list","data":[]}`)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, models.Load().(string))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	waitArmed(t, clk, 2)
	clk.Advance(2 * time.Second)
	s = nextState(t, tr)
	var nm *transport.NoModelError
	if s.State != transport.StateOffline || !errors.As(s.Err, &nm) || !strings.Contains(s.Err.Error(), "ollama pull qwen3:4b") || s.RetryIn != 4*time.Second {
		t.Fatalf("no model: %+v", s)
	}
	models.Store(`{"object":"list","data":[{"id":"nomic-embed-text:latest"},{"id":"qwen3:8b"}]}`)
	waitArmed(t, clk, 3)
	clk.Advance(4 * time.Second)
	s = nextState(t, tr)
	if s.State != transport.StateReady || s.Server != "Ollama" || s.Model != "qwen3:8b" || s.AutoModel != "qwen3:8b" {
		t.Fatalf("ready: %+v", s)
	}
}

// closedAddr is a loopback address where nothing listens (yet): a server
// the test starts later.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Reconnect on a transport that probes asks the server again now rather
// than claiming ready: the pill stays truthful while the server is down.
func TestReconnectProbesNow(t *testing.T) {
	addr := closedAddr(t)
	clk := clocktest.NewFake(time.Unix(1_800_000_000, 0))
	tr, err := chatcompletions.New(transport.Options{ChatBaseURL: "http://" + addr + "/v1", Vocabulary: rt.Vocabulary, Probe: true, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Start()
	if s := nextState(t, tr); s.State != transport.StateOffline {
		t.Fatalf("first probe: %+v", s)
	}
	waitArmed(t, clk, 1)
	tr.Reconnect() // no clock advance: the probe runs at once
	if s := nextState(t, tr); s.State != transport.StateOffline || s.RetryIn != 2*time.Second {
		t.Fatalf("after Reconnect: %+v", s)
	}
}

// A local server that refuses without its key (Jan since 0.5.18, played
// as its code answers): the key-rejected state says which server wants
// a key and where it is, and nothing is retried until the user acts.
func TestKeyedLocalServerSaysWhereItsKeyIs(t *testing.T) {
	jan := rt.NewLocal(rt.LocalJan, "Jan-v1-4B")
	jan.Key = "jan-key"
	srv := rt.Start(t, jan.Handle)
	tr, err := chatcompletions.New(transport.Options{ChatBaseURL: srv.URL + "/v1", Vocabulary: rt.Vocabulary, Probe: true,
		Server: func(context.Context) transport.ServerInfo {
			return transport.ServerInfo{Name: "Jan", KeyHint: "paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Start()
	s := nextState(t, tr)
	var kn *transport.KeyNeededError
	if s.State != transport.StateKeyRejected || !errors.As(s.Err, &kn) ||
		s.Err.Error() != "Jan needs its API key · paste Jan's API key (Jan → Settings → Local API Server) into the preset's key" {
		t.Fatalf("got %+v", s)
	}
}

// KoboldCpp with no model loaded lists its placeholder "inactive": the
// probe says the server has no model and how to load one, rather than
// becoming ready with "inactive" as the model every turn would fail on.
func TestProbeKoboldCppWithNoModelLoaded(t *testing.T) {
	fake := rt.NewLocal(rt.LocalKoboldCpp)
	srv := httptest.NewServer(fake)
	defer srv.Close()
	base := srv.URL + "/v1"
	tr, err := chatcompletions.New(transport.Options{ChatBaseURL: base, Vocabulary: rt.Vocabulary, Probe: true,
		Clock: clocktest.NewFake(time.Unix(1_800_000_000, 0)),
		Server: func(context.Context) transport.ServerInfo {
			k := localserver.KoboldCpp // a test server's port is not 5001: what Describe would name by its answers
			return transport.ServerInfo{Name: string(k), NoModelHint: localserver.NoModelHint(k), NoneLoaded: localserver.LoadsOne(k)}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Start()
	s := nextState(t, tr)
	var nm *transport.NoModelError
	if s.State != transport.StateOffline || !errors.As(s.Err, &nm) || s.Err.Error() != "KoboldCpp has no model loaded · load a chat model in KoboldCpp" {
		t.Fatalf("KoboldCpp with no model: %+v", s)
	}
	if m := tr.(interface{ Model() string }).Model(); m != "" {
		t.Errorf("model %q picked from a server with none loaded", m)
	}
}
