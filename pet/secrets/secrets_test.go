package secrets

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestCallTimesOut: a keyring that does not answer fails the call after
// the timeout, and every later call at once.
func TestCallTimesOut(t *testing.T) {
	k := &Keyring{timeout: time.Millisecond}
	hung := make(chan struct{})
	defer close(hung)
	err := k.call("reading", "p-1/key", func() error { <-hung; return nil })
	if !errors.Is(err, ErrNotAnswering) {
		t.Fatalf("hung call = %v", err)
	}
	ran := false
	if err := k.call("reading", "p-1/key", func() error { ran = true; return nil }); !errors.Is(err, ErrNotAnswering) || ran {
		t.Errorf("call after a timeout = %v (ran %v)", err, ran)
	}
}

// TestSystemWithoutBus: no session bus, no keyring, and the reason.
func TestSystemWithoutBus(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the keyring there needs no session bus")
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if k, why := System(); k != nil || why != "no session bus" {
		t.Errorf("System() = %v, %q", k, why)
	}
}
