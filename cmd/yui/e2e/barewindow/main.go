// Command barewindow is the yardstick of `make bench`: a bare Fyne window
// with one label, measured beside the idle pet in the same run.
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.NewWithID("io.github.yui.barewindow")
	w := a.NewWindow("bare")
	w.SetContent(widget.NewLabel("A bare Fyne window"))
	w.Resize(fyne.NewSize(384, 600))
	w.ShowAndRun()
}
