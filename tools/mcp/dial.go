package mcp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Dialer makes the transport of one connection to a server. stderr gets
// a local server's standard error. end, called after the session closed,
// ends what the transport started beyond it (a local server's process
// group, a remote one's idle connections); it may be nil.
type Dialer func(cfg ServerConfig, stderr io.Writer) (t mcp.Transport, end func(), err error)

// terminateWait is how long a local server has to exit once its stdin
// closed before it is signalled, and then killed with its process group.
const terminateWait = 2 * time.Second

// Dial is the Dialer of real servers: a process for a command (the SDK's
// CommandTransport), streamable HTTP for a URL.
func Dial(cfg ServerConfig, stderr io.Writer) (mcp.Transport, func(), error) {
	if cfg.Kind() == KindHTTP {
		return dialHTTP(cfg)
	}
	return dialStdio(cfg, stderr)
}

// dialStdio runs the command in its own process group (a job object on
// Windows) so that stopping it stops whatever it started too, and so that
// it dies with Yui (proc_linux.go, proc_windows.go).
func dialStdio(cfg ServerConfig, stderr io.Writer) (mcp.Transport, func(), error) {
	path, err := exec.LookPath(cfg.Command)
	if err != nil {
		return nil, nil, &permanentError{fmt.Errorf("command %q not found", cfg.Command)}
	}
	cmd := exec.Command(path, cfg.Args...)
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
		cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
	}
	cmd.Stderr = stderr
	// A grandchild holding stderr open must not hold Wait forever.
	cmd.WaitDelay = terminateWait
	g := newProcGroup(cmd)
	t := &startHook{inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateWait}, started: func() { g.adopt(cmd) }}
	return t, g.end, nil
}

// startHook runs started once the process is running, for the platform's
// process grouping that needs its handle (a Windows job object).
type startHook struct {
	inner   *mcp.CommandTransport
	started func()
}

func (h *startHook) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := h.inner.Connect(ctx)
	if err == nil {
		h.started()
	}
	return c, err
}

// dialHTTP is a streamable HTTP client whose requests carry the
// configured headers (an Authorization, say).
func dialHTTP(cfg ServerConfig) (mcp.Transport, func(), error) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	client := &http.Client{Transport: headerTransport{headers: cfg.Headers, next: base}}
	t := &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client, MaxRetries: 2}
	return t, base.CloseIdleConnections, nil
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.next.RoundTrip(r)
}

// permanentError is a start failure no retry can mend (a command that is
// not installed): the server fails at once.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }
