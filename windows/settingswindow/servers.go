package settingswindow

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/character"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/transport/localserver"
)

// The Speech and Voice tabs' local servers (docs/voices.md): the speech
// and transcription servers found on this machine, each with a Use
// button that fills the engine's fields at once; the fields of the
// gpt-sovits and piper engines; and the voice the preset's character
// suggests for the engine chosen.

// AudioServers is what the Speech and Voice tabs ask the app about the
// speech and transcription servers on this machine (docs/voices.md).
type AudioServers interface {
	// FindAudioServers asks their usual loopback ports (a second or so);
	// never on the UI thread.
	FindAudioServers(ctx context.Context) []localserver.AudioServer
	// FoundAudioServers is the last scan's answer (a first start's).
	FoundAudioServers() []localserver.AudioServer
}

// serverFields are those widgets (part of presetFields).
type serverFields struct {
	speechServers *fyne.Container // one row a server found
	voiceServers  *fyne.Container
	refAudio      *widget.Entry
	refText       *widget.Entry
	refLang       *widget.Entry
	piperModel    *widget.Entry
	piperProgram  *widget.Entry
	// suggestVoice fills in the character's voice; hidden when it has
	// none for the engine or the preset speaks with it already.
	suggestVoice *widget.Button
	suggested    string // the character's voice for the engine, "" when none
	// scanning is set while a scan runs; scannedAt is when the last one
	// ended (audioTabShown).
	scanning  bool
	scannedAt time.Time
	// charVoices are the characters' names and speech blocks as last
	// read, by id: choosing an engine offers the voice from here, on the
	// UI thread, and only a character not read yet asks for a job.
	charVoices map[string]charVoice
}

// charVoice is what a character's pack says of its voice.
type charVoice struct {
	name   string
	speech character.Speech
}

// audioScanWait bounds a scan: every port is asked at once.
const audioScanWait = 5 * time.Second

// audioRescanAfter is how old the last scan may be when the Speech or
// Voice tab shows before the ports are asked again: going from one tab to
// the other asks once, coming back after starting a server asks again.
const audioRescanAfter = 10 * time.Second

func (e *presetEditor) buildServerFields(entry func(func(*settings.Preset, string)) *widget.Entry) {
	f := &e.f
	f.speechServers = container.NewVBox()
	f.voiceServers = container.NewVBox()
	f.refAudio = entry(func(p *settings.Preset, s string) { p.Speech.RefAudio = strings.TrimSpace(s) })
	f.refAudio.SetPlaceHolder(lang.L("A clip of 3 to 10 seconds in the voice to speak with (.wav)"))
	f.refText = entry(func(p *settings.Preset, s string) { p.Speech.RefText = strings.TrimSpace(s) })
	f.refText.SetPlaceHolder(lang.L("What is said in the clip"))
	f.refLang = entry(func(p *settings.Preset, s string) { p.Speech.RefLang = strings.TrimSpace(s) })
	f.refLang.SetPlaceHolder(lang.L("en, ja, zh, ko, yue or auto"))
	f.piperModel = entry(func(p *settings.Preset, s string) { p.Speech.PiperModel = strings.TrimSpace(s) })
	f.piperModel.SetPlaceHolder(lang.L("A Piper voice (.onnx) to run the Piper program with; empty: Piper's server at the base URL"))
	f.piperProgram = entry(func(p *settings.Preset, s string) { p.Speech.PiperProgram = strings.TrimSpace(s) })
	f.piperProgram.SetPlaceHolder(lang.L("piper (on the PATH)"))
	f.suggestVoice = widget.NewButton("", func() {
		if f.suggested != "" {
			f.speechVoice.SetText(f.suggested) // tells the form: the user chose it
			f.suggestVoice.Hide()
		}
	})
	f.suggestVoice.Hide()
	f.character.changed = chain(f.character.changed, func(string) { e.suggestVoice() })
}

// fillServers shows p's server fields.
func (f *presetFields) fillServers(p settings.Preset) {
	f.refAudio.SetText(p.Speech.RefAudio)
	f.refText.SetText(p.Speech.RefText)
	f.refLang.SetText(p.Speech.RefLang)
	f.piperModel.SetText(p.Speech.PiperModel)
	f.piperProgram.SetText(p.Speech.PiperProgram)
}

// browse is a button choosing a file into to.
func (e *presetEditor) browse(to *widget.Entry) *widget.Button {
	return widget.NewButtonWithIcon("", theme.FolderOpenIcon(), func() {
		if e.w.win == nil {
			return
		}
		dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				r.Close()
				to.SetText(r.URI().Path())
			}
		}, e.w.win)
	})
}

func (e *presetEditor) speechServerRows() []fyne.CanvasObject {
	f := &e.f
	find := widget.NewButtonWithIcon(lang.L("Find local servers"), theme.SearchIcon(), e.findAudioServers)
	return append(append(append(append(append(append(
		e.row("", lang.L("Local servers"), container.NewVBox(find, f.speechServers)),
		e.row("speech.ref_audio", lang.L("Reference clip"), container.NewBorder(nil, nil, nil, e.browse(f.refAudio), f.refAudio))...),
		e.row("speech.ref_text", lang.L("Clip text"), f.refText)...),
		e.row("speech.ref_lang", lang.L("Clip language"), f.refLang)...),
		e.row("speech.piper_model", lang.L("Piper voice model"), container.NewBorder(nil, nil, nil, e.browse(f.piperModel), f.piperModel))...),
		e.row("speech.piper_program", lang.L("Piper program"), f.piperProgram)...),
		e.row("", "", f.suggestVoice)...)
}

func (e *presetEditor) voiceServerRows() []fyne.CanvasObject {
	find := widget.NewButtonWithIcon(lang.L("Find local servers"), theme.SearchIcon(), e.findAudioServers)
	return e.row("", lang.L("Local servers"), container.NewVBox(find, e.f.voiceServers))
}

// audioTabShown is the Speech or Voice tab showing: the last scan's
// servers show at once, and the ports are asked again unless a scan is
// running or ended less than audioRescanAfter ago.
func (e *presetEditor) audioTabShown() {
	f := &e.f
	e.showAudioServers(e.w.b.FoundAudioServers(), "")
	if f.scanning || (!f.scannedAt.IsZero() && e.w.now().Sub(f.scannedAt) < audioRescanAfter) {
		return
	}
	e.findAudioServers()
}

// findAudioServers scans off the UI thread and lists what answered (Find
// local servers, and the tabs showing); a click while a scan runs waits
// for that one.
func (e *presetEditor) findAudioServers() {
	f := &e.f
	if e.id == "" || f.scanning {
		return
	}
	f.scanning = true
	if len(e.w.b.FoundAudioServers()) == 0 {
		e.showAudioServers(nil, lang.L("Looking for local speech and transcription servers…"))
	}
	// One job, no work on the UI thread after it starts: the scan and
	// the character's voice land together.
	suggest := e.suggestion()
	e.w.run(audioScanWait, func(ctx context.Context) func() {
		found := e.w.b.FindAudioServers(ctx)
		show := suggest()
		return func() {
			f.scanning, f.scannedAt = false, e.w.now()
			e.showAudioServers(found, "")
			show()
		}
	})
}

// showAudioServers lists found in both tabs, each with its Use button;
// a tab with none shows note, or says none answered.
func (e *presetEditor) showAudioServers(found []localserver.AudioServer, note string) {
	f := &e.f
	var speechRows, voiceRows []fyne.CanvasObject
	for _, s := range found {
		use := widget.NewButton(lang.L("Use"), func() { e.useAudioServer(s) })
		row := container.NewBorder(nil, nil, nil, use, widget.NewLabel(audioServerLabel(s)+" — "+s.URL))
		if s.Service == localserver.ServiceTranscription {
			voiceRows = append(voiceRows, row)
		} else {
			speechRows = append(speechRows, row)
		}
	}
	e.w.log.Debug("settings_audio_servers", "speech", len(speechRows), "transcription", len(voiceRows))
	speechNote, voiceNote := note, note
	if note == "" {
		speechNote = lang.L("No local speech server answered: docs/voices.md says how to start one.")
		voiceNote = lang.L("No local transcription server answered: docs/voices.md says how to start one.")
	}
	if len(speechRows) == 0 {
		speechRows = append(speechRows, helpText(speechNote))
	}
	if len(voiceRows) == 0 {
		voiceRows = append(voiceRows, helpText(voiceNote))
	}
	setObjects(f.speechServers, speechRows)
	setObjects(f.voiceServers, voiceRows)
}

// setObjects replaces what box holds and repaints it. Container.Add and
// RemoveAll only lay the box out again: without the Refresh the window
// keeps showing the old rows until something else repaints it (the
// Speech tab showed "Looking for…" over the servers a scan had found).
func setObjects(box *fyne.Container, objs []fyne.CanvasObject) {
	box.Objects = objs
	box.Refresh()
}

// useAudioServer points the preset's engine at s in one click.
func (e *presetEditor) useAudioServer(s localserver.AudioServer) {
	f := &e.f
	if s.Service == localserver.ServiceTranscription {
		e.edit(func(p *settings.Preset) {
			p.Voice.Engine, p.Voice.BaseURL = string(s.Engine), s.URL
			if s.Engine == localserver.EngineOpenAI {
				p.Voice.Model = s.Model
			}
		})
	} else {
		f.voicesFor = voiceListKey(string(s.Engine), s.URL) // the server's voices, not the engine's usual list
		e.edit(func(p *settings.Preset) {
			p.Speech.Engine, p.Speech.BaseURL, p.Speech.Model = string(s.Engine), s.URL, s.Model
			if s.Engine == localserver.EnginePiper {
				p.Speech.PiperModel = ""
			}
		})
		f.speechVoices = nil
		for _, v := range s.Offers {
			f.speechVoices = append(f.speechVoices, speech.Voice{ID: v, Name: v})
		}
	}
	e.loading = true
	f.fillAudio(e.draft)
	e.loading = false
	f.filterVoices(f.speechVoice.Text)
	e.showEngineFields()
	e.suggestVoice()
}

// suggestVoice offers the voice the preset's character names for the
// engine: the placeholder says it (an empty voice speaks with it) and a
// button fills it in. A voice the user chose stays as it is. It runs when
// a character is chosen (its pack is read again: it may have been
// imported since) and with each scan, each one job.
func (e *presetEditor) suggestVoice() {
	if e.id == "" || e.loading {
		return
	}
	suggest := e.suggestion()
	e.w.run(voiceListWait, func(context.Context) func() { return suggest() })
}

// engineVoice offers the character's voice for a newly chosen engine, on
// the UI thread, from the character as last read. The tabs that hold the
// engines read it when they show (audioTabShown), so no job is needed.
func (e *presetEditor) engineVoice() {
	if e.id == "" || e.loading {
		return
	}
	if cv, ok := e.f.charVoices[e.draft.Character]; ok {
		e.showSuggestion(cv.name, cv.speech.Suggest(e.draft.Speech.Engine, e.draft.Speech.Model))
	}
}

// suggestion reads the character's pack (call the result off the UI
// thread) and returns what shows its voice (on the UI thread).
func (e *presetEditor) suggestion() func() func() {
	id, engine, model := e.draft.Character, e.draft.Speech.Engine, e.draft.Speech.Model
	dir := e.w.b.Store().Dir()
	return func() func() {
		pack, err := loadPack(dir, id)
		cv := charVoice{name: id}
		if err == nil {
			cv = charVoice{name: pack.Name, speech: pack.Speech}
		}
		return func() {
			if err == nil {
				if e.f.charVoices == nil {
					e.f.charVoices = map[string]charVoice{}
				}
				e.f.charVoices[id] = cv
			}
			if e.draft.Character == id && e.draft.Speech.Engine == engine {
				e.showSuggestion(cv.name, cv.speech.Suggest(engine, model))
			}
		}
	}
}

// showSuggestion shows the character's voice v ("" when none).
func (e *presetEditor) showSuggestion(name, v string) {
	f := &e.f
	f.suggested = v
	if v == "" {
		f.speechVoice.SetPlaceHolder(lang.L("The engine's default"))
		f.suggestVoice.Hide()
		return
	}
	f.speechVoice.SetPlaceHolder(lang.L("The character's voice: {{.Voice}}", map[string]any{"Voice": v}))
	f.suggestVoice.SetText(lang.L("Use the character's voice ({{.Name}}: {{.Voice}})", map[string]any{"Name": name, "Voice": v}))
	if e.draft.Speech.Voice == v {
		f.suggestVoice.Hide()
	} else {
		f.suggestVoice.Show()
	}
}
