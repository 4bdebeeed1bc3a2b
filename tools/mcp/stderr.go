package mcp

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
)

// maxStderrLine bounds one logged line of a server's stderr; a server
// writing without newlines is cut there.
const maxStderrLine = 2000

// stderrLog writes a local server's stderr to the app log line by line
// (mcp_stderr; the app log's handler redacts the secrets the settings
// hold, app/applog/redact.go) and keeps the last line, which a failed
// server shows as its reason.
type stderrLog struct {
	log  *slog.Logger
	name string

	mu   sync.Mutex
	buf  []byte
	line string
}

func newStderrLog(log *slog.Logger, name string) *stderrLog {
	return &stderrLog{log: log, name: name}
}

func (w *stderrLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf = append(w.buf, p...)
	var lines []string
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 && len(w.buf) < maxStderrLine {
			break
		}
		if i < 0 {
			i = maxStderrLine
		}
		line := strings.TrimSpace(string(w.buf[:i]))
		w.buf = w.buf[min(i+1, len(w.buf)):]
		if line != "" {
			lines = append(lines, line)
			w.line = line
		}
	}
	w.mu.Unlock()
	for _, l := range lines {
		w.log.Info("mcp_stderr", "name", w.name, "line", l)
	}
	return len(p), nil
}

// last is the last non-empty line written.
func (w *stderrLog) last() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.line
}
