//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDialNoServer(t *testing.T) {
	// Display 0 on a host nobody listens on: refused at once.
	_, err := dial("127.0.0.1:61", 5*time.Second)
	if !errors.Is(err, ErrNoDisplay) || !strings.Contains(err.Error(), "cannot connect to DISPLAY=127.0.0.1:61") {
		t.Fatalf("dial = %v", err)
	}
}

func TestDialHungServer(t *testing.T) {
	// A server that accepts and never answers: the check gives up in time.
	dir := t.TempDir()
	sock := filepath.Join(dir, "X:0") // xgb dials a path display as path:number
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	defer l.Close()
	conns := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns <- c // held open, never answered
		}
	}()
	_, err = dial(filepath.Join(dir, "X:0"), 300*time.Millisecond)
	l.Close()
	for len(conns) > 0 {
		(<-conns).Close()
	}
	if !errors.Is(err, ErrNoDisplay) {
		t.Fatalf("dial of a silent server = %v", err)
	}
}
