package settingswindow

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
)

// speechCommandFields are the Speech tab's fields of the command engine:
// the program line and the sample rate of its raw output.
type speechCommandFields struct {
	line   *widget.Entry
	help   *widget.Label
	rate   *widget.Entry
	test   *widget.Button // Speak a sample: the voice row with its own is hidden for this engine
	result *widget.Label
}

func (e *presetEditor) newSpeechCommandFields() speechCommandFields {
	f := speechCommandFields{line: widget.NewEntry(), rate: widget.NewEntry()}
	f.line.SetPlaceHolder("piper --model en_US-lessac-medium.onnx --output-raw")
	f.line.OnChanged = func(s string) { e.edit(func(p *settings.Preset) { p.Speech.Command = s }) }
	f.help = helpText(lang.L("A program that reads the sentence on standard input and " +
		"writes a WAV, or raw 16-bit mono PCM at the rate below, to standard output. Quotes work as in a shell; " +
		"no shell runs it."))
	f.rate.SetPlaceHolder(lang.L("0 = the command writes a WAV; Piper: 22050"))
	f.rate.OnChanged = func(s string) {
		e.editInt("speech.command_rate", s, func(p *settings.Preset, n int) { p.Speech.CommandRate = n })
	}
	f.result = widget.NewLabel("")
	f.result.Wrapping = fyne.TextWrapWord
	f.result.Hide() // shows once a sample was asked for
	f.test = widget.NewButtonWithIcon(lang.L("Speak a sample"), theme.MediaPlayIcon(), func() { e.speakSampleWith(f.test, f.result) })
	return f
}
