// Command barewindow is the yardstick of `make bench`: a bare Fyne window
// with one label, measured beside the idle pet in the same run. With
// -windows N it shows N such windows in one process: what each window
// past the first costs is the floor under what each pet past the first
// can cost (one GL context and its buffers a window).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/trace"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	n := flag.Int("windows", 1, "how many windows to show")
	traceFile := flag.String("trace", "", "write a Go execution trace of the run to this file, to set beside yui --trace's")
	flag.Parse()
	if *traceFile != "" {
		f, err := os.Create(*traceFile)
		if err != nil {
			log.Fatal(err)
		}
		if err := trace.Start(f); err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		defer trace.Stop()
	}
	a := app.NewWithID("io.github.yui.barewindow")
	for i := range max(*n, 1) {
		title := "bare"
		if i > 0 {
			title = fmt.Sprintf("bare %d", i+1)
		}
		w := a.NewWindow(title)
		w.SetContent(widget.NewLabel("A bare Fyne window"))
		w.Resize(fyne.NewSize(384, 600))
		w.Show()
	}
	a.Run()
}
