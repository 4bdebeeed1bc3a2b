package petwindow

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
)

// ToolAnswer is the user's answer to the tool prompt.
type ToolAnswer int

const (
	ToolDeny ToolAnswer = iota
	ToolAllowOnce
	ToolAllowAlways
)

// AskTool shows the prompt for one call of a user's MCP tool
// (docs/product.md §12): its name, its arguments on one line, and Allow
// once / Always / Deny; Enter is Allow once, Escape Deny, Tab moves
// between the buttons. answer gets the choice once, on the UI thread;
// closing the prompt denies. dismiss closes it unanswered (the 30 s
// passed, or the turn stopped). Any goroutine; the prompt is a small
// window of its own, like the screen-look prompt (attach.go).
func (w *PetWindow) AskTool(tool, summary string, answer func(ToolAnswer)) (dismiss func()) {
	var once sync.Once
	var win fyne.Window
	var mu sync.Mutex
	finish := func(v *ToolAnswer) {
		once.Do(func() {
			mu.Lock()
			pw := win
			mu.Unlock()
			if pw != nil {
				pw.Close()
			}
			if v != nil {
				w.log.Info("pet_tool_answer", "name", w.opts.Name, "tool", tool, "answer", int(*v))
				answer(*v)
			}
		})
	}
	fyne.Do(func() {
		if w.closed.Load() {
			d := ToolDeny
			finish(&d)
			return
		}
		pw := w.app.NewWindow(lang.L("{{.Name}} — tool permission", map[string]any{"Name": w.opts.Name}))
		mu.Lock()
		win = pw
		mu.Unlock()
		pick := func(v ToolAnswer) func() { return func() { finish(&v) } }
		once := widget.NewButton(lang.L("Allow once"), pick(ToolAllowOnce))
		once.Importance = widget.HighImportance
		always := widget.NewButton(lang.L("Always"), pick(ToolAllowAlways))
		deny := widget.NewButton(lang.L("Deny"), pick(ToolDeny))
		title := widget.NewLabelWithStyle(tool, fyne.TextAlignLeading, fyne.TextStyle{Bold: true, Monospace: true})
		msg := widget.NewLabel(lang.L("wants to use a tool: {{.Tool}}", map[string]any{"Tool": summary}))
		msg.Wrapping = fyne.TextWrapWord
		pw.SetContent(container.NewPadded(container.NewVBox(title, msg, container.NewHBox(once, always, deny))))
		pw.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
			switch k.Name {
			case fyne.KeyReturn, fyne.KeyEnter:
				pick(ToolAllowOnce)()
			case fyne.KeyEscape:
				pick(ToolDeny)()
			}
		})
		pw.SetCloseIntercept(pick(ToolDeny))
		pw.Resize(fyne.NewSize(440, 150))
		// No button takes the focus at first: a focused button would take
		// Enter and Escape from the canvas; Tab reaches them, Space taps.
		pw.Show()
		w.log.Info("pet_tool_prompt", "name", w.opts.Name, "tool", tool)
	})
	return func() { fyne.Do(func() { finish(nil) }) }
}
