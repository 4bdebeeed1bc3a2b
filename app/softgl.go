package app

import "os"

// softGLThreadsVar is how Mesa's software GL driver (llvmpipe: under Xvfb,
// in virtual machines and remote desktops, on a desktop without a GPU
// driver) is told how many rasterizer threads to start for each GL
// context. It reads it once, when the process's first context is made.
const softGLThreadsVar = "LP_NUM_THREADS"

// useLeanSoftGL has llvmpipe draw in the thread that asks (no rasterizer
// threads), unless the user set the variable. Its default, a thread a
// core for every window's context, woke each of them for every frame an
// idle pet breathes, for a few hundred pixels that one thread draws in
// less time than the hand-over takes (docs/performance.md, "Where an idle
// pet's time goes"). A GPU's driver does not read the variable. The returned func puts the environment back once
// the pets' windows have their contexts, so that child processes (a
// browser) get the user's.
func useLeanSoftGL() (restore func()) {
	if _, set := os.LookupEnv(softGLThreadsVar); set {
		return func() {}
	}
	_ = os.Setenv(softGLThreadsVar, "0")
	return func() { _ = os.Unsetenv(softGLThreadsVar) }
}
