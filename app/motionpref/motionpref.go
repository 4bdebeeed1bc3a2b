// Package motionpref reads whether the user asked the desktop for reduced
// motion: GNOME's enable-animations off on Linux, client-area animations
// off on Windows, Reduce motion on macOS. The pet then keeps its eyes
// still.
package motionpref
