package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// The e2e benchmarks (cmd/yui/e2e/bench, build tag e2e) write these files into
// $YUI_BENCH_OUT. Their shapes are the contract between the benchmarks
// and this generator.
const (
	idleFile    = "idle.json"
	startupFile = "startup.json"
	turnsFile   = "turns.json"
)

// Usage is one process's resident set and CPU over the idle window.
type Usage struct {
	RSSBytes   int64   `json:"rss_bytes"`
	CPUPercent float64 `json:"cpu_percent"`
	// CtxSwitches is context switches per second; 0 in a file written
	// before they were measured.
	CtxSwitches float64 `json:"ctx_switches_per_s"`
}

// Idle is BenchmarkIdlePetVsBareWindow's idle.json: three processes side
// by side under one Xvfb, over the same window.
type Idle struct {
	WindowSeconds float64 `json:"window_seconds"`
	Bare          *Usage  `json:"bare_window"`
	OnePet        *Usage  `json:"one_pet"`
	ThreePets     *Usage  `json:"three_pets"`
	// ThreeBare is three bare windows in one process; absent in older
	// files.
	ThreeBare *Usage `json:"three_bare_windows,omitempty"`
}

func (i *Idle) validate() error {
	for _, u := range []struct {
		name string
		u    *Usage
	}{{"bare_window", i.Bare}, {"one_pet", i.OnePet}, {"three_pets", i.ThreePets}} {
		switch {
		case u.u == nil:
			return fmt.Errorf("%s missing", u.name)
		case u.u.RSSBytes <= 0:
			return fmt.Errorf("%s.rss_bytes %d is not positive", u.name, u.u.RSSBytes)
		case u.u.CPUPercent < 0:
			return fmt.Errorf("%s.cpu_percent %g is negative", u.name, u.u.CPUPercent)
		case u.u.CtxSwitches < 0:
			return fmt.Errorf("%s.ctx_switches_per_s %g is negative", u.name, u.u.CtxSwitches)
		}
	}
	if i.ThreeBare != nil && i.ThreeBare.RSSBytes <= 0 {
		return fmt.Errorf("three_bare_windows.rss_bytes %d is not positive", i.ThreeBare.RSSBytes)
	}
	return nil
}

// Startup is BenchmarkStartupToWSReady's startup.json: from process start
// to the first ws_ready record, one entry per run.
type Startup struct {
	RunsMS []float64 `json:"runs_ms"`
	// ReadyAfterShownMS is, per run, how long after pet_window_shown the
	// first ws_ready came (negative: before); absent in older files.
	ReadyAfterShownMS []float64 `json:"ready_after_shown_ms"`
}

func (s *Startup) validate() error {
	if len(s.RunsMS) == 0 {
		return errors.New("runs_ms is empty")
	}
	for i, v := range s.RunsMS {
		if v <= 0 {
			return fmt.Errorf("runs_ms[%d] = %g is not positive", i, v)
		}
	}
	return nil
}

// Median is the middle run (the mean of the middle two for an even count).
func (s *Startup) Median() float64 { return median(s.RunsMS) }

// median is the middle value of v (the mean of the middle two for an even count).
func median(in []float64) float64 {
	v := append([]float64(nil), in...)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// TurnSample is one point of the 10,000-turn series.
type TurnSample struct {
	Turn       int   `json:"turn"`
	RSSBytes   int64 `json:"rss_bytes"`
	Goroutines int   `json:"goroutines"`
	FDs        int   `json:"fds"`
}

// Turns is BenchmarkTenThousandTurns's turns.json.
type Turns struct {
	Turns            int          `json:"turns"`
	RSSBeforeBytes   int64        `json:"rss_before_bytes"`
	RSSAfterBytes    int64        `json:"rss_after_bytes"`
	GoroutinesBefore int          `json:"goroutines_before"`
	GoroutinesAfter  int          `json:"goroutines_after"`
	FDsBefore        int          `json:"fds_before"`
	FDsAfter         int          `json:"fds_after"`
	Series           []TurnSample `json:"series"`
}

func (t *Turns) validate() error {
	switch {
	case t.Turns <= 0:
		return fmt.Errorf("turns %d is not positive", t.Turns)
	case t.RSSBeforeBytes <= 0 || t.RSSAfterBytes <= 0:
		return fmt.Errorf("rss_before_bytes %d / rss_after_bytes %d are not both positive", t.RSSBeforeBytes, t.RSSAfterBytes)
	case t.GoroutinesBefore <= 0 || t.GoroutinesAfter <= 0:
		return fmt.Errorf("goroutines_before %d / goroutines_after %d are not both positive", t.GoroutinesBefore, t.GoroutinesAfter)
	}
	return nil
}

// Input is one e2e result file: the value when it was read, or why not.
// A missing file is Missing, with no error: that benchmark did not run.
type Input[T any] struct {
	File    string
	Value   *T
	Missing bool
	Err     error
}

// Status says in a few words why there is no value.
func (in Input[T]) Status() string {
	switch {
	case in.Value != nil:
		return ""
	case in.Err != nil:
		return in.Err.Error()
	default:
		return "no " + in.File + " in this run"
	}
}

// readInput reads dir/name into a T and checks it. dir "" means no
// directory was given: every file is missing.
func readInput[T any, P interface {
	*T
	validate() error
}](dir, name string) Input[T] {
	if dir == "" {
		return Input[T]{File: name, Missing: true}
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return Input[T]{File: name, Missing: true}
	}
	if err != nil {
		return Input[T]{File: name, Err: fmt.Errorf("read %s: %w", name, err)}
	}
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return Input[T]{File: name, Err: fmt.Errorf("%s is not valid: %w", name, err)}
	}
	if err := P(v).validate(); err != nil {
		return Input[T]{File: name, Err: fmt.Errorf("%s: %w", name, err)}
	}
	return Input[T]{File: name, Value: v}
}

// Results is everything one `make bench` run measured.
type Results struct {
	Bench   *BenchRun
	Idle    Input[Idle]
	Startup Input[Startup]
	Turns   Input[Turns]
	Latency Input[Latency] // latency.go
	Scale   Input[Scale]   // scale.go
	Frame   Input[FirstFrame]
}

// readResults reads the e2e result files of dir.
func readResults(run *BenchRun, dir string) Results {
	return Results{
		Bench:   run,
		Idle:    readInput[Idle](dir, idleFile),
		Startup: readInput[Startup](dir, startupFile),
		Turns:   readInput[Turns](dir, turnsFile),
		Latency: readInput[Latency](dir, latencyFile),
		Scale:   readInput[Scale](dir, scaleFile),
		Frame:   readInput[FirstFrame](dir, firstFrameFile),
	}
}
