package app

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"yui/pet/character"
	"yui/pet/settings"
)

// packLoads reads the characters of the pets about to start while the
// rest of start-up runs (the log, the keyring, the driver, the audio
// device, the desktop): decoding a pack's images is the largest part of
// a pet's start before its first frame that a bare window does not pay
// (docs/performance.md, "Where the pet's first frame waits"). Each
// character is read once, however many presets show it; a session takes
// its load once, and a pet started later reads its pack from disk again
// (the user may have changed it meanwhile).
type packLoads struct {
	wg sync.WaitGroup
	mu sync.Mutex
	m  map[string]*packLoad
}

type packLoad struct {
	done  chan struct{}
	quick *character.Quick // its first frame decoded (character.LoadQuick)
	err   error
}

// startPackLoads starts reading the characters of presets, each on its
// own goroutine (the pack's own decoding uses every core: pet/character/images.go).
func startPackLoads(configDir string, presets []settings.Preset) *packLoads {
	l := &packLoads{m: map[string]*packLoad{}}
	for _, p := range presets {
		if _, ok := l.m[p.Character]; ok {
			continue
		}
		ld := &packLoad{done: make(chan struct{})}
		l.m[p.Character] = ld
		l.wg.Add(1)
		go func(id string) {
			defer l.wg.Done()
			defer close(ld.done)
			ld.quick, ld.err = character.SelectQuick(configDir, id)
		}(p.Character)
	}
	return l
}

// take returns the load of character id started at start-up, once it
// has ended, and forgets it; ok is false when none was started for id.
// Safe on nil.
func (l *packLoads) take(id string) (ld *packLoad, ok bool) {
	if l == nil {
		return nil, false
	}
	l.mu.Lock()
	ld, ok = l.m[id]
	delete(l.m, id)
	l.mu.Unlock()
	if ok {
		<-ld.done
	}
	return ld, ok
}

// quick is character id's pack for a pet about to start: the load
// start-up began for it, else one read now (character.SelectQuick: the
// first frame only, on the UI thread too). Safe on nil.
func (l *packLoads) quick(configDir, id string) (*character.Quick, error) {
	if ld, ok := l.take(id); ok {
		return ld.quick, ld.err
	}
	return character.SelectQuick(configDir, id)
}

// wait returns once every load has ended (Run's way out: no goroutine
// outlives it). Safe on nil.
func (l *packLoads) wait() {
	if l != nil {
		l.wg.Wait()
	}
}

// warmFonts has Fyne find the system's fallback fonts and load the
// theme's text face off the UI goroutine, while start-up goes on: the
// first text a pet window measures (its rows' height,
// windows/petwindow/layout.go) would otherwise scan the system's fonts
// there, 150-350 ms on a machine with the CJK fonts installed. Fyne's
// font caches are safe for concurrent use (a lock around the scan, async
// maps: fyne.io/fyne/v2/internal/painter/font.go), and the theme was set
// before this starts. Only the regular style: each other style loads a
// fallback face of its own (with the CJK fonts, 15 MiB of tables for
// italic and bold), which a pet that never draws it should not hold.
// It returns once the scan has ended, for startLater.
func warmFonts() struct{} {
	fyne.MeasureText("Ag", theme.TextSize(), fyne.TextStyle{})
	return struct{}{}
}

// startingPresets are the presets whose pets start with the app, before
// the source that runs them is open (source.go): the demo's (the default
// character) with --demo, else the enabled ones. A guess that misses
// costs a load; the session then reads its pack itself.
func startingPresets(st settings.Settings, demo bool) []settings.Preset {
	if demo {
		return []settings.Preset{{Character: settings.DefaultCharacter}}
	}
	return enabledPresets(st)
}

// later is a value being made on its own goroutine while start-up goes
// on (the font scan, the desktop's X connection, the motion preference:
// none of them on the UI goroutine); get waits for it where it is needed.
type later[T any] struct {
	done chan struct{}
	v    T
}

func startLater[T any](f func() T) *later[T] {
	l := &later[T]{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.v = f()
	}()
	return l
}

func (l *later[T]) get() T {
	<-l.done
	return l.v
}
