package app

import (
	"os"
	"testing"
)

// The variable is set for the first GL context unless the user set it,
// and taken away again after.
func TestUseLeanSoftGL(t *testing.T) {
	t.Setenv(softGLThreadsVar, "") // restored after the test
	os.Unsetenv(softGLThreadsVar)
	restore := useLeanSoftGL()
	if v, ok := os.LookupEnv(softGLThreadsVar); !ok || v != "0" {
		t.Fatalf("while the windows are made: %q, %v", v, ok)
	}
	restore()
	if v, ok := os.LookupEnv(softGLThreadsVar); ok {
		t.Fatalf("after: %q is left for the children", v)
	}

	os.Setenv(softGLThreadsVar, "4")
	useLeanSoftGL()()
	if v := os.Getenv(softGLThreadsVar); v != "4" {
		t.Fatalf("the user's value became %q", v)
	}
}
