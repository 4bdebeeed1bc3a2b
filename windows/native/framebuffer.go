package native

import "github.com/go-gl/glfw/v3.3/glfw"

// LeanFramebuffers makes the windows Fyne's driver creates from now on
// have no depth or stencil buffer. Fyne's painter tests no depth (it
// disables GL_DEPTH_TEST) and uses no stencil, but GLFW asks for 24 and 8
// bits by default: a buffer the size of the window in every window, which
// a software GL driver keeps in memory and clears at each repaint (about
// a megabyte for a pet window; docs/performance.md).
//
// GLFW keeps window hints until they are set again, and Fyne sets only
// its own before it creates a window's context. It must run on the main
// goroutine after the driver started GLFW, that is after the first
// window was created and before it shows.
func LeanFramebuffers() {
	glfw.WindowHint(glfw.DepthBits, 0)
	glfw.WindowHint(glfw.StencilBits, 0)
}
