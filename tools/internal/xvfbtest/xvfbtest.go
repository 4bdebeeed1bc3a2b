// Package xvfbtest starts a private Xvfb server for integration tests of
// the tools that talk to X.
package xvfbtest

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Start runs Xvfb on a free display with one screen of the given size
// (e.g. "1280x800x24") and the Xinerama extension, points $DISPLAY at it
// for the test, and stops it when the test ends. The test is skipped when
// Xvfb is not installed.
func Start(t *testing.T, screen string) string {
	t.Helper()
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb not installed")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// -displayfd: the server picks a free display and writes its number
	// to fd 3 once it accepts connections.
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", screen, "+xinerama", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb exited without a display number")
		}
		display := ":" + n
		t.Setenv("DISPLAY", display)
		return display
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not start within 20 s")
	}
	return ""
}
