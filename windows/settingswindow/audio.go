package settingswindow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/pet/speech"
	"yui/pet/voice"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// The Speech and Voice tabs: a voice picker listing the engine's voices
// with a sample, sliders for rate, volume and the voice-activity
// threshold, the microphone picker with a live level meter, and only the
// fields of the engine chosen.

// Speech is what the Speech tab asks the app.
type Speech interface {
	// SpeakSample speaks a sample sentence with p's speech settings as
	// edited; an error says why it could not.
	SpeakSample(ctx context.Context, p settings.Preset) error
	// Voices lists a speech engine's voices for a preset whose server is
	// at base; it may run a program or ask the server. fromServer says
	// the server listed them itself (Kokoro-FastAPI does).
	Voices(ctx context.Context, engine, base string) (vs []speech.Voice, fromServer bool, err error)
}

// Voice is what the Voice tab asks the app (the App tab lists the
// devices too).
type Voice interface {
	// TestVoice records a few seconds with p's voice settings as edited
	// and returns the recognised text.
	TestVoice(ctx context.Context, p settings.Preset) (string, error)
	// AudioDevices lists the audio inputs and outputs; it may block for a
	// moment on the audio system.
	AudioDevices() (voice.Devices, error)
	// MeterVoice captures from p's microphone as edited (its device, or
	// the --voice-in file that replaces it) and calls fn, from any
	// goroutine, with each level reading until ctx ends.
	MeterVoice(ctx context.Context, p settings.Preset, fn func(voice.Reading)) error
}

// audioFields are the Speech and Voice tabs' widgets (part of presetFields).
type audioFields struct {
	speechEngine     *choice
	speechVoice      *widget.SelectEntry
	speechVoices     []speech.Voice // what the engine listed
	voiceOptions     []string       // the voices the picker offers now
	speechVoiceNote  *widget.Label
	speechURL        *widget.Entry
	speechKey        *widget.Entry
	speechModel      *widget.Entry
	speechRate       *slider
	speechVolume     *slider
	speechCmd        speechCommandFields
	speechTest       *widget.Button
	speechResult     *widget.Label
	voiceMode        *choice
	wake             wakeWordFields // wakeword.go
	voiceEngine      *choice
	voiceDevice      *choice
	voiceMeter       *levelMeter
	voiceThreshold   *slider
	voiceURL         *widget.Entry
	voiceKey         *widget.Entry
	voiceModel       *widget.Entry
	voiceLang        *widget.Entry
	voiceCommand     *widget.Entry
	voiceTest        *widget.Button
	voiceResult      *widget.Label
	meterCancel      context.CancelFunc // stops the level meter; nil when off
	voicesFor        string             // the engine whose voices are listed
	defaultThreshold float64
}

var (
	speechEngineOptions = []option{{"system", "System voice"}, {"openai", "OpenAI-compatible server"},
		{"gpt-sovits", lang.L("GPT-SoVITS (a voice cloned from a clip)")}, {"piper", lang.L("Piper (its server, or the program with a voice model)")},
		{"alltalk", lang.L("AllTalk v1 (its own API)")},
		{"command", "Command (a local program: Piper, espeak-ng, …)"}, {"none", "None (bubble only)"}}
	voiceModeOptions = []option{{"off", "Off"}, {"push_to_talk", "Push to talk"},
		{"hands_free", "Hands-free"}, wakeWordOption()}
	voiceEngineOptions = []option{{"openai", "OpenAI-compatible server"}, {"whisper.cpp", lang.L("whisper.cpp server")}, {"command", "Command"}}
)

// defaultDevice is the device choice's value for the system default.
const defaultDevice = ""

// voiceListWait bounds the listing of an engine's voices.
const voiceListWait = 15 * time.Second

// slider is a value slider with its value in words and a reset.
type slider struct {
	*widget.Slider
	text  *widget.Label
	reset *widget.Button
	show  func(float64) string
}

func newSlider(lo, hi, step, reset float64, show func(float64) string, changed func(float64)) *slider {
	s := &slider{Slider: widget.NewSlider(lo, hi), text: widget.NewLabel(""), show: show}
	s.Step = step
	s.OnChanged = func(v float64) {
		s.text.SetText(show(v))
		changed(v)
	}
	s.reset = widget.NewButtonWithIcon("", theme.ContentUndoIcon(), func() { s.SetValue(reset) })
	return s
}

// set shows v without telling the form (filling from the store).
func (s *slider) set(v float64) {
	s.Slider.Value = v
	s.Slider.Refresh()
	s.text.SetText(s.show(v))
}

func (s *slider) object() fyne.CanvasObject {
	return container.NewBorder(nil, nil, nil, container.NewHBox(s.text, s.reset), s.Slider)
}

func (e *presetEditor) buildAudioFields(entry, password func(func(*settings.Preset, string)) *widget.Entry,
	pick func([]option, func(*settings.Preset, string)) *choice) {
	f := &e.f
	f.defaultThreshold = voice.DefaultVADConfig.Threshold
	f.speechEngine = pick(speechEngineOptions, func(p *settings.Preset, v string) { p.Speech.Engine = v })
	f.speechEngine.changed = chain(f.speechEngine.changed, func(string) { e.engineChanged() })
	f.speechVoice = widget.NewSelectEntry(nil)
	f.speechVoice.SetPlaceHolder(lang.L("The engine's default"))
	f.speechVoice.OnChanged = func(s string) {
		e.edit(func(p *settings.Preset) { p.Speech.Voice = strings.TrimSpace(s) })
		f.filterVoices(s)
	}
	f.speechVoiceNote = helpText("")
	f.speechURL = entry(func(p *settings.Preset, s string) { p.Speech.BaseURL = strings.TrimSpace(s) })
	f.speechURL.SetPlaceHolder("https://api.openai.com/v1")
	f.speechKey = password(func(p *settings.Preset, s string) { p.Speech.Key = s })
	f.speechModel = entry(func(p *settings.Preset, s string) { p.Speech.Model = strings.TrimSpace(s) })
	f.speechRate = newSlider(0.25, 4, 0.05, 1, func(v float64) string { return i18n.Decimal(v, 2) + "×" },
		func(v float64) { e.edit(func(p *settings.Preset) { p.Speech.Rate = round2(v) }) })
	f.speechVolume = newSlider(0, 1, 0.05, 1, func(v float64) string { return i18n.Percent(v) },
		func(v float64) { e.edit(func(p *settings.Preset) { p.Speech.Volume = round2(v) }) })
	f.speechCmd = e.newSpeechCommandFields()
	f.speechTest = widget.NewButtonWithIcon(lang.L("Speak a sample"), theme.MediaPlayIcon(), e.speakSample)
	f.speechResult = widget.NewLabel("")
	f.speechResult.Wrapping = fyne.TextWrapWord
	f.speechResult.Hide() // shows once a sample was asked for

	f.voiceMode = pick(voiceModeOptions, func(p *settings.Preset, v string) { p.Voice.Mode = v })
	e.buildWakeWordFields(entry)
	f.voiceEngine = pick(voiceEngineOptions, func(p *settings.Preset, v string) { p.Voice.Engine = v })
	f.voiceEngine.changed = chain(f.voiceEngine.changed, func(string) { e.engineChanged() })
	f.voiceDevice = pick([]option{{defaultDevice, "System default"}}, func(p *settings.Preset, v string) { p.Voice.Device = v })
	f.voiceDevice.changed = chain(f.voiceDevice.changed, func(string) { e.restartMeter() })
	f.voiceMeter = newLevelMeter()
	f.voiceThreshold = newSlider(settings.MinVoiceThreshold, settings.MaxVoiceThreshold, 1, f.defaultThreshold,
		func(v float64) string {
			return lang.L("{{.DB}} dB over the noise", map[string]any{"DB": fmt.Sprintf("%.0f", v)})
		},
		func(v float64) {
			e.edit(func(p *settings.Preset) {
				if v == f.defaultThreshold {
					v = 0 // the default, kept as such
				}
				p.Voice.Threshold = v
			})
		})
	f.voiceURL = entry(func(p *settings.Preset, s string) { p.Voice.BaseURL = strings.TrimSpace(s) })
	f.voiceURL.SetPlaceHolder("https://api.openai.com/v1")
	f.voiceKey = password(func(p *settings.Preset, s string) { p.Voice.Key = s })
	f.voiceModel = entry(func(p *settings.Preset, s string) { p.Voice.Model = strings.TrimSpace(s) })
	f.voiceModel.SetPlaceHolder("whisper-1")
	f.voiceLang = entry(func(p *settings.Preset, s string) { p.Voice.Language = strings.TrimSpace(s) })
	f.voiceLang.SetPlaceHolder(lang.L("en, ja, … (empty: the server detects it)"))
	f.voiceCommand = entry(func(p *settings.Preset, s string) { p.Voice.Command = s })
	f.voiceCommand.SetPlaceHolder(lang.L("A program that reads a WAV file and prints the text"))
	f.voiceTest = widget.NewButtonWithIcon(lang.L("Record and recognise"), theme.MediaRecordIcon(), e.testVoice)
	f.voiceResult = widget.NewLabel("")
	f.voiceResult.Wrapping = fyne.TextWrapWord
	e.buildServerFields(entry) // servers.go
}

// chain runs a, then b.
func chain(a, b func(string)) func(string) {
	return func(v string) {
		if a != nil {
			a(v)
		}
		b(v)
	}
}

func round2(v float64) float64 { return float64(int(v*100+0.5)) / 100 }

// fillAudio shows p's speech and voice settings.
func (f *presetFields) fillAudio(p settings.Preset) {
	f.speechEngine.SetValue(p.Speech.Engine)
	f.speechVoice.SetText(p.Speech.Voice)
	f.speechURL.SetText(p.Speech.BaseURL)
	f.speechKey.SetText(p.Speech.Key)
	f.speechModel.SetText(p.Speech.Model)
	f.speechRate.set(p.Speech.Rate)
	f.speechVolume.set(p.Speech.Volume)
	f.speechCmd.line.SetText(p.Speech.Command)
	f.speechCmd.rate.SetText(strconv.Itoa(p.Speech.CommandRate))
	f.voiceMode.SetValue(p.Voice.Mode)
	f.wake.load(p)
	f.voiceEngine.SetValue(p.Voice.Engine)
	f.voiceDevice.SetValue(p.Voice.Device)
	th := p.Voice.Threshold
	if th == 0 {
		th = f.defaultThreshold
	}
	f.voiceThreshold.set(th)
	f.voiceURL.SetText(p.Voice.BaseURL)
	f.voiceKey.SetText(p.Voice.Key)
	f.voiceModel.SetText(p.Voice.Model)
	f.voiceLang.SetText(p.Voice.Language)
	f.voiceCommand.SetText(p.Voice.Command)
	f.fillServers(p)
}

func (e *presetEditor) speechTab() fyne.CanvasObject {
	f := &e.f
	voiceRow := container.NewBorder(nil, nil, nil, f.speechTest, f.speechVoice)
	return page(rows(
		heading(lang.L("Speech output")),
		e.row("speech.engine", lang.L("Engine"), f.speechEngine.Select),
		e.row("speech.voice", lang.L("Voice"), voiceRow, f.speechVoiceNote, f.speechResult),
		e.row("speech.base_url", lang.L("Base URL"), f.speechURL),
		e.row("speech.key", lang.L("Key"), f.speechKey),
		e.row("speech.model", lang.L("Model"), f.speechModel),
		e.row("speech.rate", lang.L("Rate"), f.speechRate.object()),
		e.row("speech.command", lang.L("Command"), container.NewBorder(nil, nil, nil, f.speechCmd.test, f.speechCmd.line),
			f.speechCmd.help, f.speechCmd.result),
		e.row("speech.command_rate", lang.L("Raw PCM rate"), f.speechCmd.rate),
		e.row("speech.volume", lang.L("Volume"), f.speechVolume.object()),
		e.speechServerRows(),
	))
}

func (e *presetEditor) voiceTab() fyne.CanvasObject {
	f := &e.f
	return page(rows(
		heading(lang.L("Voice input")),
		e.row("voice.mode", lang.L("Mode"), f.voiceMode.Select),
		e.wakeWordRow(),
		e.row("voice.device", lang.L("Microphone"), f.voiceDevice.Select, f.voiceMeter),
		e.row("voice.threshold", lang.L("Sensitivity"), f.voiceThreshold.object(),
			helpText(lang.L("Speech must rise this far over the background noise to count as voice: lower hears quieter speech, higher ignores more noise. The red line on the meter is where it starts."))),
		e.row("voice.engine", lang.L("Engine"), f.voiceEngine.Select),
		e.row("voice.base_url", lang.L("Base URL"), f.voiceURL),
		e.row("voice.key", lang.L("Key"), f.voiceKey),
		e.row("voice.model", lang.L("Model"), f.voiceModel),
		e.row("voice.language", lang.L("Language"), f.voiceLang),
		e.row("voice.command", lang.L("Command"), f.voiceCommand),
		e.row("", "", f.voiceTest, f.voiceResult),
		e.voiceServerRows(),
	))
}

// engineFields are the rows each engine shows; the rest of its tab's
// engine rows hide.
var engineFields = map[string][]string{
	"speech:system":     {"speech.voice", "speech.rate", "speech.volume"},
	"speech:openai":     {"speech.voice", "speech.base_url", "speech.key", "speech.model", "speech.rate", "speech.volume"},
	"speech:none":       {},
	"speech:command":    {"speech.command", "speech.command_rate", "speech.volume"},
	"speech:gpt-sovits": {"speech.base_url", "speech.ref_audio", "speech.ref_text", "speech.ref_lang", "speech.rate", "speech.volume"},
	"speech:alltalk":    {"speech.voice", "speech.base_url", "speech.volume"},
	"speech:piper":      {"speech.voice", "speech.base_url", "speech.piper_model", "speech.piper_program", "speech.rate", "speech.volume"},
	"voice:openai":      {"voice.base_url", "voice.key", "voice.model", "voice.language"},
	"voice:whisper.cpp": {"voice.base_url", "voice.language"},
	"voice:command":     {"voice.command"},
}

// engineRows are every row an engine may hide.
var engineRows = []string{"speech.voice", "speech.base_url", "speech.key", "speech.model", "speech.rate",
	"speech.volume", "speech.command", "speech.command_rate",
	"voice.base_url", "voice.key", "voice.model", "voice.language", "voice.command",
	"speech.ref_audio", "speech.ref_text", "speech.ref_lang", "speech.piper_model", "speech.piper_program"}

// showEngineFields shows the rows of the engines chosen and hides the
// others; a row with a reason to show stays, so an error is never hidden.
func (e *presetEditor) showEngineFields() {
	shown := map[string]bool{}
	for _, k := range []string{"speech:" + e.draft.Speech.Engine, "voice:" + e.draft.Voice.Engine} {
		for _, f := range engineFields[k] {
			shown[f] = true
		}
	}
	for _, field := range engineRows {
		objs, ok := e.rowObjs[field]
		if !ok {
			continue
		}
		on := shown[field] || e.fieldErrs[field] != "" || e.parseErrs[field] != ""
		for _, o := range objs {
			widgets.SetShown(o, on)
		}
	}
	e.f.speechTest.Disable()
	if e.draft.Speech.Engine != speech.EngineNone {
		e.f.speechTest.Enable()
	}
}

// engineChanged follows a change of engine: its fields, its voices.
func (e *presetEditor) engineChanged() {
	if e.loading {
		return
	}
	e.showEngineFields()
	e.loadVoices()
	e.engineVoice() // the character's voice for this engine (servers.go)
}

// loadVoices lists the speech engine's voices into the picker, off the UI
// goroutine.
func (e *presetEditor) loadVoices() {
	engine, base := e.draft.Speech.Engine, e.draft.Speech.BaseURL
	key := voiceListKey(engine, base)
	if e.id == "" || key == e.f.voicesFor {
		return
	}
	e.f.voicesFor = key
	e.f.speechVoiceNote.SetText(lang.L("Listing the voices…"))
	e.w.run(voiceListWait, func(ctx context.Context) func() {
		vs, fromServer, err := e.w.b.Voices(ctx, engine, base)
		return func() {
			if e.f.voicesFor != key {
				return
			}
			e.f.speechVoices = vs
			e.f.filterVoices(e.f.speechVoice.Text)
			e.f.speechVoiceNote.SetText(voicesNote(engine, fromServer, len(vs), err))
		}
	})
}

// voiceListKey names what the picker lists: an engine's voices, or those
// of the server at base for the openai engine (a Kokoro server lists its
// own).
func voiceListKey(engine, base string) string {
	if engine != speech.EngineOpenAI {
		return engine
	}
	return engine + " " + strings.TrimSpace(base)
}

// voicesNote says what the picker holds.
func voicesNote(engine string, fromServer bool, n int, err error) string {
	switch {
	case errors.Is(err, speech.ErrNoSystemVoice):
		return lang.L("No speech program is installed: install espeak-ng (Linux), or choose another engine. Speech shows in the bubble meanwhile.")
	case err != nil:
		return lang.L("The voices could not be listed: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)})
	case engine == speech.EngineOpenAI && !fromServer:
		return lang.N("{{.Count}} usual voices; a server with others (Kokoro, openedai-speech) takes any name typed here.", n, map[string]any{"Count": n})
	case n == 0:
		return lang.L("This engine has no voices to pick from.")
	}
	return lang.N("{{.Count}} voices: type to search, pick one, then Speak a sample.", n, map[string]any{"Count": n})
}

// filterVoices offers the listed voices whose id, name or language holds
// text (all of them for an empty text or an exact pick).
func (f *presetFields) filterVoices(text string) {
	q := strings.ToLower(strings.TrimSpace(text))
	var opts []string
	exact := slices.ContainsFunc(f.speechVoices, func(v speech.Voice) bool { return strings.ToLower(v.ID) == q })
	for _, v := range f.speechVoices {
		if q == "" || exact || strings.Contains(strings.ToLower(v.ID+" "+v.Name+" "+v.Language), q) {
			opts = append(opts, v.ID)
		}
	}
	f.voiceOptions = opts
	f.speechVoice.SetOptions(opts)
}

// startMeter lists the audio devices and runs the level meter on the
// microphone as edited while the Voice tab shows.
func (e *presetEditor) startMeter() {
	e.stopMeter()
	if e.id == "" || e.w.win == nil {
		return
	}
	e.w.run(voiceListWait, func(context.Context) func() {
		d, err := e.w.b.AudioDevices()
		return func() { e.showDevices(d.Inputs, err) }
	})
	e.runMeter()
}

// runMeter runs the level meter on the microphone as edited.
func (e *presetEditor) runMeter() {
	e.stopMeter()
	if e.id == "" || e.w.win == nil {
		return
	}
	ctx, cancel := context.WithCancel(e.w.ctx)
	e.f.meterCancel = cancel
	p := e.candidate()
	m := e.f.voiceMeter
	m.SetNote(lang.L("Listening…"))
	th := e.f.voiceThreshold
	// The meter runs until the tab or the window closes: not one of the
	// window's jobs, which end by themselves (w.jobs), but stopped by ctx.
	go func() {
		err := e.w.b.MeterVoice(ctx, p, func(r voice.Reading) {
			fyne.Do(func() {
				if ctx.Err() == nil {
					r.Threshold = r.Floor + th.Value
					m.Set(r)
				}
			})
		})
		fyne.Do(func() {
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				m.SetNote(lang.L("The microphone cannot be heard: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
			} else {
				m.SetNote(lang.L("The microphone stopped."))
			}
		})
	}()
}

// stopMeter stops the level meter.
func (e *presetEditor) stopMeter() {
	if e.f.meterCancel != nil {
		e.f.meterCancel()
		e.f.meterCancel = nil
		e.f.voiceMeter.SetNote(lang.L("Not listening"))
	}
}

// restartMeter follows a change of microphone while the meter runs.
func (e *presetEditor) restartMeter() {
	if e.f.meterCancel != nil && !e.loading {
		e.runMeter()
	}
}

// showDevices fills the microphone picker: the default, every input, and
// the preset's device when it is missing (said so).
func (e *presetEditor) showDevices(inputs []voice.Device, err error) {
	opts := []option{{defaultDevice, "System default"}}
	for _, d := range inputs {
		label := d.Name
		if d.Default {
			label += lang.L(" (default)")
		}
		opts = append(opts, option{d.Name, label})
	}
	cur := e.draft.Voice.Device
	if cur != "" && !slices.ContainsFunc(inputs, func(d voice.Device) bool { return d.Name == cur }) {
		opts = append(opts, option{cur, cur + " (missing: the default is used)"})
	}
	e.f.voiceDevice.SetOptions(opts) // quiet: the choice tells no one
	e.f.voiceDevice.SetValue(cur)
	if err != nil {
		e.f.voiceMeter.SetNote(lang.L("No audio devices: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
	}
}
