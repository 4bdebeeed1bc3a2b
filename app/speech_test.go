package app

import (
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/pet"
	"yui/pet/audio"
	"yui/pet/character"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/windows/petwindow"
)

func TestNoAudioDeviceFallsBackToBubblePacing(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	y := &yui{log: log, audio: &audioOut{log: log, mixer: audio.NewMixer(), notice: noDeviceNotice}}
	o := y.audio.speechOut(settings.Speech{Engine: settings.SpeechEngineSystem, Rate: 1, Volume: 1}, log)
	defer o.close()
	if _, ok := o.engine.(*speech.None); !ok || o.player != nil {
		t.Fatalf("engine %T player %v with no device, want none and no player", o.engine, o.player)
	}
	opts := o.petOptions(pet.Options{})
	if opts.AudioNotice != noDeviceNotice || opts.Mouth != nil || opts.Speech != o.engine {
		t.Fatalf("pet options %+v", opts)
	}
	if err := y.audio.speakSample(context.Background(), settings.Speech{Engine: settings.SpeechEngineSystem}); err == nil {
		t.Fatal("the Test button spoke with no audio output")
	}
}

// A preset that does not speak loses nothing to a missing device: its
// pill says nothing about it.
func TestNoAudioNoteOnlyForAPresetThatSpeaks(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	y := &yui{log: log, audio: &audioOut{log: log, mixer: audio.NewMixer(), notice: noDeviceNotice}}
	o := y.audio.speechOut(settings.Speech{Engine: settings.SpeechEngineNone, Rate: 1, Volume: 1}, log)
	defer o.close()
	if n := o.petOptions(pet.Options{}).AudioNotice; n != "" {
		t.Fatalf("speech none shows %q", n)
	}
}

// A preset's empty card and open voice take its character pack's.
func TestPackDefaultsFillThePreset(t *testing.T) {
	s := &session{pack: &character.Pack{Card: "You are Kit.", Speech: character.Speech{Voices: map[string]string{"openai": "nova"}, Rate: 1.2}}}
	s.setPreset(settings.Preset{Speech: settings.Speech{Engine: settings.SpeechEngineOpenAI, Rate: 1}})
	if s.card() != "You are Kit." {
		t.Errorf("card %q", s.card())
	}
	if sp := s.speechSettings(); sp.Voice != "nova" || sp.Rate != 1.2 {
		t.Errorf("speech %+v", sp)
	}
	s.setPreset(settings.Preset{Card: "Mine.", Speech: settings.Speech{Engine: settings.SpeechEngineOpenAI, Voice: "alloy", Rate: 0.9}})
	if sp := s.speechSettings(); s.card() != "Mine." || sp.Voice != "alloy" || sp.Rate != 0.9 {
		t.Errorf("the preset's own card and speech were replaced: %q %+v", s.card(), sp)
	}
}

// TestAudioOutWritesSpeech opens the process's audio output with a WAV
// tee (the device if there is one, else the clock pulling the mix), speaks
// a sentence with the system voice and reads the file back.
func TestAudioOutWritesSpeech(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.wav")
	log := slog.New(slog.DiscardHandler)
	out, err := openAudio(path, log)
	if err != nil {
		t.Fatal(err)
	}
	y := &yui{log: log, audio: out}
	o := y.audio.speechOut(settings.Speech{Engine: settings.SpeechEngineSystem, Rate: 1.5, Volume: 1}, log)
	if _, ok := o.engine.(*speech.Audio); !ok {
		t.Fatalf("engine %T, want the system voice (espeak-ng installed by .ci/deps.sh test)", o.engine)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	if err := speech.Speak(ctx, o.engine, "Testing one two three."); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	o.close()
	out.close()

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st := audio.NewStream()
	if err := audio.Decode(f, audio.Format{}, st); err != nil {
		t.Fatal(err)
	}
	buf := st.Unread()
	n := len(buf)
	var sum float64
	for _, x := range buf {
		sum += float64(x) * float64(x)
	}
	secs := float64(n) / audio.Rate
	if secs < 0.8 || secs > 6 || math.Sqrt(sum/float64(max(n, 1))) < 0.01 {
		t.Fatalf("WAV holds %.2f s, rms %.4f", secs, math.Sqrt(sum/float64(max(n, 1))))
	}
	// Played in real time, not faster.
	if took < time.Duration(secs*0.8*float64(time.Second)) {
		t.Fatalf("%.2f s of speech played in %v", secs, took)
	}
}

// TestAudioOutWaitsForItsDevice: start-up makes the output first and
// opens its device later, on another goroutine (app.go, once the font
// scan has ended); a pet asking for a player meanwhile waits for the
// device's opening and gets its outcome, not "no audio".
func TestAudioOutWaitsForItsDevice(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	out, err := newAudioOut(filepath.Join(t.TempDir(), "out.wav"), log)
	if err != nil {
		t.Fatal(err)
	}
	y := &yui{log: log, audio: out}
	got := make(chan *speechOut)
	go func() { got <- y.audio.speechOut(settings.Speech{Engine: settings.SpeechEngineNone, Volume: 1}, log) }()
	go out.openDevice()
	o := <-got
	// With a WAV file the mix is always pulled: by the device, else by
	// the clock.
	if o.player == nil {
		t.Fatal("the pet got no player: it did not wait for the device's opening")
	}
	if out.device == nil && out.notice != petwindow.NoAudioFileText {
		t.Errorf("no device, notice %q", out.notice)
	}
	o.close()
	out.close()
	if _, err := newAudioOut(filepath.Join(t.TempDir(), "missing", "out.wav"), log); err == nil {
		t.Error("a WAV file that cannot be made was taken")
	}
}
