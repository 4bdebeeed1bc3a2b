// Package secrets reaches the system keyring: the Secret Service (GNOME
// Keyring, KWallet) on Linux, the Credential Manager on Windows and the
// Keychain on macOS, through github.com/zalando/go-keyring. The settings
// store keeps the preset keys there, and only the entry names in
// settings.json.
//
// A keyring call can block: on Linux it is a D-Bus round trip to a service
// that may be starting, or may be waiting for the user to unlock the
// keyring. Every call therefore runs with a timeout, and a call that times
// out marks the keyring as not answering for the rest of the run. Callers
// never make one on the UI goroutine.
package secrets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service name of Yui's entries.
const Service = "Yui"

// Timeout bounds each keyring call: long enough for a keyring that asks
// the user to unlock it, short enough that a start-up without an answering
// keyring goes on with the keys in the file.
const Timeout = 20 * time.Second

// ErrNotFound is the error of an entry the keyring does not hold.
var ErrNotFound = errors.New("no such keyring entry")

// ErrNotAnswering is the error of every call after one timed out.
var ErrNotAnswering = errors.New("the keyring does not answer")

// Keyring is the system keyring, one call at a time with a timeout.
type Keyring struct {
	timeout time.Duration
	dead    atomic.Bool
}

// System returns the system keyring, or nil and why there is none that can
// answer. On Linux the Secret Service is reached over the session bus: with
// no session bus there is no keyring (and none is started: the D-Bus
// library would otherwise launch a bus of its own under X).
func System() (*Keyring, string) {
	if why := noSessionBus(); why != "" {
		return nil, why
	}
	return &Keyring{timeout: Timeout}, ""
}

// noSessionBus says why a Linux (or BSD) session has no bus to reach the
// Secret Service over, "" when it has one.
func noSessionBus() string {
	switch runtime.GOOS {
	case "windows", "darwin":
		return ""
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return ""
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if fi, err := os.Stat(filepath.Join(dir, "bus")); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return ""
		}
	}
	return "no session bus"
}

// Get returns the secret of entry.
func (k *Keyring) Get(entry string) (string, error) {
	var v string
	err := k.call("reading", entry, func() error {
		var err error
		v, err = keyring.Get(Service, entry)
		return err
	})
	return v, err
}

// Set stores secret as entry, replacing what it held.
func (k *Keyring) Set(entry, secret string) error {
	return k.call("writing", entry, func() error { return keyring.Set(Service, entry, secret) })
}

// Delete removes entry; an entry already gone is no error.
func (k *Keyring) Delete(entry string) error {
	err := k.call("deleting", entry, func() error { return keyring.Delete(Service, entry) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// call runs fn with the timeout. A call that times out goes on in its
// goroutine until the keyring answers (a D-Bus call cannot be taken back);
// its result is dropped.
func (k *Keyring) call(what, entry string, fn func() error) error {
	if k.dead.Load() {
		return fmt.Errorf("secrets: %s %s: %w", what, entry, ErrNotAnswering)
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	t := time.NewTimer(k.timeout)
	defer t.Stop()
	select {
	case err := <-done:
		if errors.Is(err, keyring.ErrNotFound) {
			err = ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("secrets: %s %s: %w", what, entry, err)
		}
		return nil
	case <-t.C:
		k.dead.Store(true)
		return fmt.Errorf("secrets: %s %s: no answer in %v: %w", what, entry, k.timeout, ErrNotAnswering)
	}
}
