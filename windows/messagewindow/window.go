// Package messagewindow is the message window of one preset: its
// conversation as a scrolling list of rows (user, assistant, reasoning,
// tools, errors), a composer with image attachments, and the usage meter.
// It mirrors the preset's connection through windows.Session and opens none
// of its own.
package messagewindow

import (
	"errors"
	"image/color"
	"log/slog"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/pet"
	"yui/pet/settings"
	"yui/pet/transcript"
	"yui/transport"
	"yui/windows"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// MessageWindow is one preset's message window (docs/product.md §3): the
// conversation as the client saw it, the connection state, the token
// usage readout, the relation meter and the composer. It mirrors the
// preset's connection through the App and opens none of its own:
// while the preset is not running it says so and locks the composer, and
// when the preset starts again it attaches to the new connection.
//
// Every method is called on the UI thread; the backend's callbacks are
// handed to it with fyne.Do.
//
// Log records: window_open (window "messages", preset),
// messages_composer_send (preset, chars), messages_composer_stop (preset).
type MessageWindow struct {
	app      fyne.App
	backend  App
	presetID string
	log      *slog.Logger

	win    fyne.Window // nil while closed
	preset settings.Preset
	conn   windows.Session // the mirrored connection; nil while not running
	view   pet.View
	// gen counts attachments: a callback of an earlier connection (or
	// window) that arrives late is dropped.
	gen int

	stopView, stopLog, stopConns, stopStore func()

	conv     *conversation
	dot      *canvas.Circle
	connText *widget.Label
	usage    *canvas.Text
	header   *fyne.Container
	meter    *heartMeter
	composer *messageComposer
}

// Window sizes.
const (
	messagesWidth  = 520
	messagesHeight = 640
)

// App is the app as the message window needs it: the preset's settings
// and its running session (the app passes itself, app/windows.go). It is the
// window's own, defined where it is used as net/http's Handler is; the
// settings window declares its pages' own (windows/settingswindow).
type App interface {
	// Store is the settings store: the window reads its preset there and
	// follows its edits.
	Store() *settings.Store
	// Session returns the running preset's session, nil when the preset
	// is not running (disabled, or failed to start).
	Session(presetID string) windows.Session
	// WatchSessions calls fn (from any goroutine) whenever a preset starts
	// or stops running, until cancel.
	WatchSessions(fn func()) (cancel func())
}

// NewMessageWindow returns the message window of preset presetID; Show
// opens it.
func NewMessageWindow(a fyne.App, b App, presetID string, log *slog.Logger) *MessageWindow {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &MessageWindow{app: a, backend: b, presetID: presetID, log: log}
}

// Show opens the window, or raises it when it is open.
func (w *MessageWindow) Show() {
	if w.win != nil {
		w.win.Show()
		w.win.RequestFocus()
		return
	}
	var ok bool
	if w.preset, ok = w.backend.Store().Preset(w.presetID); !ok {
		// A preset that runs without being saved (--demo).
		w.preset = settings.Preset{ID: w.presetID, Name: "Yui", Learned: settings.Learned{Relation: settings.RelationDefault}}
	}
	w.build()
	w.stopStore = w.backend.Store().Subscribe(func(c settings.Change) {
		if !c.PresetChanged(w.presetID) {
			return
		}
		fyne.Do(func() {
			w.presetChanged() // a no-op once closed
		})
	})
	w.stopConns = w.backend.WatchSessions(func() {
		fyne.Do(func() {
			if w.win == nil {
				return
			}
			if c := w.backend.Session(w.presetID); c != w.conn {
				w.attach(c)
			}
		})
	})
	w.attach(w.backend.Session(w.presetID))
	w.win.Show()
	if !w.composer.entry.Disabled() {
		w.win.Canvas().Focus(w.composer.entry)
	}
	w.log.Info("window_open", "window", "messages", "preset", w.presetID)
}

// Close closes the window and lets go of the connection.
func (w *MessageWindow) Close() {
	if w.win != nil {
		w.win.Close() // its OnClosed tears down
	}
}

// teardown stops every subscription of a closed window.
func (w *MessageWindow) teardown() {
	w.detach()
	for _, stop := range []func(){w.stopConns, w.stopStore} {
		if stop != nil {
			stop()
		}
	}
	w.stopConns, w.stopStore = nil, nil
	w.win = nil
	w.gen++
}

func (w *MessageWindow) build() {
	w.win = w.app.NewWindow(w.title())
	w.win.SetOnClosed(w.teardown)

	w.dot = canvas.NewCircle(colMuted)
	w.connText = widget.NewLabel("")
	w.connText.Truncation = fyne.TextTruncateEllipsis
	w.usage = canvas.NewText("", colMuted)
	w.usage.TextSize = chipTextSize
	w.meter = newHeartMeter(w.preset.Relation)
	dot := container.New(dotLayout{}, w.dot)
	w.header = container.NewBorder(nil, nil, dot,
		container.NewHBox(container.NewCenter(w.usage), widget.NewSeparator(), container.NewCenter(w.meter)),
		w.connText)

	w.conv = newConversation()
	w.composer = newMessageComposer(w.sendOrStop, w.chooseImage)

	w.win.SetContent(container.NewBorder(
		container.NewVBox(container.NewPadded(w.header), widget.NewSeparator()),
		container.NewVBox(widget.NewSeparator(), w.composer.object()),
		nil, nil, w.conv))
	w.win.Resize(fyne.NewSize(messagesWidth, messagesHeight))
}

func (w *MessageWindow) title() string {
	name := w.preset.Name
	if name == "" {
		name = w.presetID
	}
	return lang.L("{{.Name}} — messages", map[string]any{"Name": name})
}

// attach mirrors c (nil: the preset is not running).
func (w *MessageWindow) attach(c windows.Session) {
	w.detach()
	w.gen++
	gen := w.gen
	w.conn = c
	if c == nil {
		w.setView(pet.View{})
		w.conv.setEmpty(lang.L("{{.Name}} is not running: no conversation to show.", map[string]any{"Name": w.name()}))
		return
	}
	w.conv.setEmpty(lang.L("No messages yet."))
	// Watch first, then read: a view published in between arrives after
	// this one and is newer.
	w.stopView = c.WatchView(func(v pet.View) {
		fyne.Do(func() {
			if gen == w.gen {
				w.setView(v)
			}
		})
	})
	w.setView(c.View())
	if log := c.Transcript(); log != nil {
		history, stop := log.Subscribe(func(ch transcript.Change) {
			fyne.Do(func() {
				if gen == w.gen {
					w.conv.apply(ch)
				}
			})
		})
		w.stopLog = stop
		w.conv.setHistory(history)
	} else {
		w.conv.setHistory(nil)
	}
}

// detach stops mirroring the current connection.
func (w *MessageWindow) detach() {
	for _, stop := range []func(){w.stopView, w.stopLog} {
		if stop != nil {
			stop()
		}
	}
	w.stopView, w.stopLog = nil, nil
}

func (w *MessageWindow) name() string {
	if w.preset.Name != "" {
		return w.preset.Name
	}
	return w.presetID
}

// presetChanged reloads the preset's name, context window and relation
// score; a deleted preset closes the window.
func (w *MessageWindow) presetChanged() {
	if w.win == nil {
		return
	}
	p, ok := w.backend.Store().Preset(w.presetID)
	if !ok {
		w.Close()
		return
	}
	w.preset = p
	w.win.SetTitle(w.title())
	w.meter.setScore(p.Relation)
	w.showUsage()
	if w.conn == nil {
		w.conv.setEmpty(lang.L("{{.Name}} is not running: no conversation to show.", map[string]any{"Name": w.name()}))
	}
}

// notRunning is the connection text while the preset is not running.
const notRunning = "not running"

// setView shows a new view of the mirrored connection. The pet publishes
// a view for every frame of its bubble and motion: only what the window
// shows and what changed is redrawn.
func (w *MessageWindow) setView(v pet.View) {
	w.view = v
	text := i18n.Pill(v.Pill.Conn)
	var dot color.Color = colMuted
	if w.conn == nil {
		text = lang.L(notRunning)
	} else {
		dot = widgets.StateColor(v.Pill.ConnState)
	}
	if v.Pill.Tool != "" {
		text += " · " + i18n.Pill(v.Pill.Tool)
	}
	if w.connText.Text != text {
		w.connText.SetText(text)
	}
	if w.dot.FillColor != dot {
		w.dot.FillColor = dot
		w.dot.Refresh()
	}
	w.showUsage()
	w.composer.set(w.conn != nil, v.Running, v.ErrorLine, w.win.Canvas())
}

func (w *MessageWindow) showUsage() {
	text := usageText(w.view.Usage, w.preset.ContextWindow)
	if w.usage.Text == text {
		return
	}
	w.usage.Text = text
	w.usage.Refresh()
	w.header.Refresh() // the readout's width changed
}

// sendOrStop is the composer's button and Enter: it sends the text, or
// stops the running turn. Whether a turn runs is asked of the connection
// (Busy), not only read from the view drawn last, which follows a turn's
// start by a moment: a stop pressed then must not be taken for a send.
func (w *MessageWindow) sendOrStop(text string) bool {
	if w.conn == nil {
		return false
	}
	if w.view.Running || w.conn.Busy() {
		w.conn.Stop()
		w.log.Info("messages_composer_stop", "preset", w.presetID)
		return false
	}
	if text == "" && len(w.composer.images) == 0 {
		return false
	}
	images := w.composer.takeImages()
	w.conn.SendText(text, images)
	w.log.Info("messages_composer_send", "preset", w.presetID, "chars", len([]rune(text)), "images", len(images))
	return true
}

// chooseImage is the composer's attach button: a file dialog for a PNG or
// JPEG added to the next turn.
func (w *MessageWindow) chooseImage() {
	if w.win == nil {
		return
	}
	widgets.OpenImage(w.win, func(img transport.Image, err error) {
		switch {
		case err != nil:
			dialog.ShowError(errors.New(i18n.Error(err)), w.win)
		case img.Data != nil:
			w.composer.addImage(img)
			w.log.Info("messages_attach", "preset", w.presetID, "mime", img.MIME, "bytes", len(img.Data))
		}
	})
}

// dotLayout centres a 10×10 status dot in a cell a little wider.
type dotLayout struct{}

func (dotLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(fyne.NewSize(10, 10))
		o.Move(fyne.NewPos((size.Width-10)/2, (size.Height-10)/2))
	}
}

func (dotLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(18, 10) }
