package app

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"yui/pet/settings"
)

// One Yui runs per config directory: two would write the same settings
// and history and show every pet twice. The first holds a lock on
// <dir>/yui.lock and listens on a loopback port it writes, with a random
// token, to <dir>/yui.instance; a second start that cannot take the lock
// connects there, asks the first to bring its pets forward, and leaves.

const (
	lockName     = "yui.lock"
	instanceName = "yui.instance"
	// instanceWait bounds how long a second start waits for the first to
	// answer (it may still be starting up).
	instanceWait = 5 * time.Second
)

// instance is the running Yui's claim on its config directory.
type instance struct {
	lock  *os.File
	ln    net.Listener
	token string
	wg    sync.WaitGroup
	// onEvent takes a `yui event` (event.go); set before serve.
	onEvent func(presetID, source, text string) error
}

// claimInstance takes the config directory for this process, or, when
// another Yui holds it, asks that one to show its pets and returns
// ErrAlreadyRunning.
func claimInstance(dir string) (*instance, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("app: opening the instance lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if err := askToShow(dir); err != nil {
			return nil, fmt.Errorf("app: another Yui holds %s but did not answer: %w", dir, err)
		}
		return nil, ErrAlreadyRunning
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("app: instance listener: %w", err)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		ln.Close()
		f.Close()
		return nil, err
	}
	in := &instance{lock: f, ln: ln, token: hex.EncodeToString(b[:])}
	line := fmt.Sprintf("%d %s\n", ln.Addr().(*net.TCPAddr).Port, in.token)
	if err := settings.WriteFileAtomic(filepath.Join(dir, instanceName), []byte(line), 0o600); err != nil {
		in.Close()
		return nil, fmt.Errorf("app: writing the instance file: %w", err)
	}
	return in, nil
}

// serve answers second starts by calling show, until Close.
func (in *instance) serve(show func()) {
	in.wg.Add(1)
	go func() {
		defer in.wg.Done()
		for {
			c, err := in.ln.Accept()
			if err != nil {
				return
			}
			in.answer(c, show)
		}
	}()
}

func (in *instance) answer(c net.Conn, show func()) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	if ev, ok := strings.CutPrefix(line, "event "+in.token+" "); ok {
		in.answerEvent(c, ev)
		return
	}
	if strings.TrimSpace(line) != "show "+in.token {
		return
	}
	show()
	_, _ = c.Write([]byte("ok\n"))
}

// Close releases the directory.
func (in *instance) Close() {
	in.ln.Close()
	in.wg.Wait()
	in.lock.Close()
}

// askToShow asks the Yui holding dir to bring its pets forward.
func askToShow(dir string) error {
	deadline := time.Now().Add(instanceWait)
	var last error
	for attempt := 0; time.Now().Before(deadline); attempt++ {
		if attempt > 0 {
			time.Sleep(100 * time.Millisecond) // the first may still be writing its file
		}
		data, err := os.ReadFile(filepath.Join(dir, instanceName))
		if err != nil {
			last = err
			continue
		}
		var port int
		var token string
		if _, err := fmt.Sscanf(string(data), "%d %s", &port, &token); err != nil {
			last = fmt.Errorf("instance file: %w", err)
			continue
		}
		if last = show(port, token); last == nil {
			return nil
		}
	}
	if last == nil {
		last = errors.New("no answer")
	}
	return last
}

func show(port int, token string) error {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := fmt.Fprintf(c, "show %s\n", token); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "ok" {
		return fmt.Errorf("unexpected answer %q", line)
	}
	return nil
}
