package settingswindow

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet"
	"yui/windows"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// notRunningText is the connection state of a preset with no pet running.
const notRunningText = "not running"

// colNotRunning is the state dot of a preset with no pet running.
var colNotRunning = color.NRGBA{0x9a, 0xa0, 0xb0, 0xff}

// connSection mirrors the selected preset's connection: its state as the
// status pill shows it, live, and the reconnect and reset buttons.
type connSection struct {
	w      *SettingsWindow
	conn   windows.Session // nil when the preset is not running
	cancel func()
	gen    int // drops views of a connection no longer watched

	dot       *canvas.Circle
	state     *widget.Label
	detail    *widget.Label
	reconnect *widget.Button
	reset     *widget.Button
}

func newConnSection(w *SettingsWindow) *connSection {
	s := &connSection{w: w}
	s.dot = canvas.NewCircle(colNotRunning)
	s.state = widget.NewLabelWithStyle(lang.L(notRunningText), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.detail = widget.NewLabel("")
	s.detail.Wrapping = fyne.TextWrapWord
	s.reconnect = widget.NewButtonWithIcon(lang.L("Reconnect"), theme.ViewRefreshIcon(), func() {
		if s.conn != nil {
			s.conn.Reconnect()
		}
	})
	s.reset = widget.NewButtonWithIcon(lang.L("Reset conversation"), theme.DeleteIcon(), s.confirmReset)
	return s
}

func (s *connSection) content() fyne.CanvasObject {
	dot := container.NewGridWrap(fyne.NewSize(14, 14), s.dot)
	state := container.NewHBox(container.NewCenter(dot), s.state)
	help := helpText(lang.L("Reconnect dials again at once: the way out after a rejected key (the backend closed with 4401) " +
		"or a long wait between retries. Reset conversation starts a new conversation under the same chat id; " +
		"the backend keeps its long-term memory, and the facts on the Memory page stay."))
	return page(rows(
		heading(lang.L("Connection")),
		[]fyne.CanvasObject{formLabel(lang.L("State")), container.NewVBox(state, s.detail)},
		[]fyne.CanvasObject{formLabel(""), container.NewHBox(s.reconnect, s.reset)},
		[]fyne.CanvasObject{formLabel(""), help},
	))
}

// running is the watched connection, nil when the preset is not running.
func (s *connSection) running() windows.Session { return s.conn }

// attach watches preset id's connection, if it runs.
func (s *connSection) attach(id string) {
	s.detach()
	s.conn = s.w.b.Session(id)
	if s.conn == nil {
		s.showNotRunning()
		s.w.session.show(s.w.b.Store().Get().DelegationHistory[id])
		return
	}
	gen := s.gen
	s.cancel = s.conn.WatchView(func(v pet.View) {
		fyne.Do(func() {
			if gen == s.gen {
				s.show(v)
			}
		})
	})
	s.show(s.conn.View())
}

func (s *connSection) detach() {
	s.gen++
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.conn = nil
}

func (s *connSection) showNotRunning() {
	s.dot.FillColor = colNotRunning
	s.dot.Refresh()
	s.state.SetText(lang.L(notRunningText))
	s.detail.SetText(lang.L("The preset is switched off, or its pet could not start."))
	widgets.SetShown(s.detail, true)
	s.reconnect.Disable()
	s.reset.Disable()
	s.w.ed.showBudget(nil)
}

func (s *connSection) show(v pet.View) {
	s.dot.FillColor = widgets.StateColor(v.Pill.ConnState)
	s.dot.Refresh()
	text := v.Pill.Conn
	if text == "" {
		text = v.Pill.ConnState.String()
	}
	s.state.SetText(i18n.Pill(text))
	var extra []string
	if v.Pill.Tool != "" {
		extra = append(extra, i18n.Pill(v.Pill.Tool))
	}
	if v.Pill.Voice != "" {
		extra = append(extra, i18n.Pill(v.Pill.Voice))
	}
	s.detail.SetText(strings.Join(extra, " · "))
	widgets.SetShown(s.detail, s.detail.Text != "")
	s.reconnect.Enable()
	s.reset.Enable()
	s.w.ed.showBudget(v.Usage)
	s.w.session.show(v.History)
}

func (s *connSection) confirmReset() {
	conn := s.conn
	if conn == nil {
		return
	}
	d := dialog.NewConfirm(lang.L("Reset conversation"),
		lang.L("Start a new conversation?\nThe transcript starts empty and work delegated in this conversation ends with it."),
		func(ok bool) {
			if ok {
				conn.Reset()
			}
		}, s.w.win)
	d.SetConfirmText(lang.L("Reset"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.SetDismissText(lang.L("Cancel"))
	d.Show()
}
