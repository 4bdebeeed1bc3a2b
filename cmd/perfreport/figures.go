package main

import (
	"fmt"
	"math"
	"strconv"
)

// Figure is one row of the report's goal table.
type Figure struct {
	Name     string  // short, for plot labels
	What     string  // what was measured, and by which benchmark
	Measured float64 // in Unit
	Text     string  // the measured value as shown, when a number alone says too little
	Unit     string
	Goal     float64 // in Unit; 0: no goal, the figure is reported
	Strict   bool    // the goal is "under" (<), not "within" (≤)
	AtLeast  bool    // the goal is a floor (≥): more is better (ERLE)
	Missing  string  // why it was not measured; "" when it was
}

// Result is the last column of the goal table.
type Result string

const (
	Pass        Result = "pass"
	Fail        Result = "**FAIL**"
	Reported    Result = "reported"
	NotMeasured Result = "not measured"
)

func (f Figure) Result() Result {
	switch {
	case f.Missing != "":
		return NotMeasured
	case f.Goal == 0:
		return Reported
	case f.AtLeast:
		if f.Measured >= f.Goal {
			return Pass
		}
		return Fail
	case f.Measured < f.Goal || (!f.Strict && f.Measured == f.Goal):
		return Pass
	default:
		return Fail
	}
}

func (f Figure) MeasuredText() string {
	switch {
	case f.Missing != "":
		return f.Missing
	case f.Text != "":
		return f.Text
	}
	return withUnit(f.Measured, f.Unit)
}

func (f Figure) GoalText() string {
	if f.Goal == 0 {
		return "—"
	}
	op := "≤"
	switch {
	case f.AtLeast:
		op = "≥"
	case f.Strict:
		op = "<"
	}
	return op + " " + withUnit(f.Goal, f.Unit)
}

// withUnit formats v to three significant digits with its unit.
func withUnit(v float64, unit string) string {
	s := num(v)
	switch unit {
	case "":
		return s
	case "x":
		return s + "x"
	case "%":
		return s + "%"
	}
	return s + " " + unit
}

// num formats v to three significant digits, without an exponent; a
// whole number as it is.
func num(v float64) string {
	if v == math.Trunc(v) || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	digits := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// microGoal is a goal on one figure of a Go benchmark.
type microGoal struct {
	name, what string
	key, unit  string  // benchmark key and the metric it reports
	scale      float64 // metric × scale = the figure in shown
	shown      string
	goal       float64
	strict     bool
	atLeast    bool
}

// microGoals are the micro-benchmark goals of README and the specs.
var microGoals = []microGoal{
	{"render decode+dispatch", "Push `render` frame: decode and dispatch (BenchmarkRenderDecodeDispatch)",
		"yui/transport/push.BenchmarkRenderDecodeDispatch", "ns/op", 1e-3, "µs", 20, true, false},
	{"render allocations", "Push `render` frame: allocations (BenchmarkRenderDecodeDispatch)",
		"yui/transport/push.BenchmarkRenderDecodeDispatch", "allocs/op", 1, "allocs", 30, true, false},
	{"turn frame, 200 KiB image", "Push `turn` frame with a 200 KiB image: encode (BenchmarkTurnFrame200KiBImage)",
		"yui/transport/push.BenchmarkTurnFrame200KiBImage", "ns/op", 1e-6, "ms", 2, true, false},
	{"Chat Completions chunk", "Chat Completions stream chunk: parse and dispatch (BenchmarkChunk)",
		"yui/transport/chatcompletions.BenchmarkChunk", "ns/chunk", 1e-3, "µs", 20, true, false},
	{"Responses event", "Responses stream event: parse and dispatch (BenchmarkEvent)",
		"yui/transport/responses.BenchmarkEvent", "ns/chunk", 1e-3, "µs", 20, true, false},
	{"JPEG fitter, 4K screenshot", "JPEG fitter: a 3840x2160 screenshot into a 256 KiB frame (BenchmarkFit3840x2160Into256KiB; docs/protocol/client-tools.md: well inside the time a user would notice)",
		"yui/tools/imagefit.BenchmarkFit3840x2160Into256KiB", "ns/op", 1e-6, "ms", 500, true, false},
	{"first audio overhead", "First audio: the client's time from a sentence reaching the queue to its first sample at the output (BenchmarkSegmentToFirstSample)",
		"yui/pet/playback.BenchmarkSegmentToFirstSample", "ms-to-first-sample", 1, "ms", 20, true, false},
	{"first sentence handoff", "First sentence: the token that ends it to its speech event, the next token 50 ms later (BenchmarkSentenceHandoff; issue 37: within 25 ms)",
		"yui/transport/chatcompletions.BenchmarkSentenceHandoff", "handoff-ms", 1, "ms", 25, true, false},
	{"stop to silence", "Stop to silence: the most audio heard after a stop, buffers included (BenchmarkAudioAfterStop)",
		"yui/pet/playback.BenchmarkAudioAfterStop", "worst-ms-audible-after-stop", 1, "ms", 50, true, false},
	// Hands-free over speakers (docs/hands-free.md): synthetic rooms until
	// the sound-server rig records its own.
	{"echo canceller cost", "Echo canceller: share of one core per second of 16 kHz audio, far end playing (BenchmarkCancel; issue 35: well under 5%)",
		"yui/pet/voice/aec.BenchmarkCancel", "%core", 1, "%", 5, true, false},
	{"ERLE, synthetic room", "Echo canceller: ERLE of the linear filter in issue 35's room after 10 s (BenchmarkERLE; at least 25 dB wanted)",
		"yui/pet/voice/aec.BenchmarkERLE", "ERLE-dB", 1, "dB", 0, false, false},
	{"barge-in latency", "Barge-in over speakers: speech onset to the stop, slowest of ten (BenchmarkBargeInLatency)",
		"yui/pet/voice.BenchmarkBargeInLatency", "barge-max-ms", 1, "ms", 600, false, false},
	{"ERLE, the rig, -65 dBFS", "Echo canceller on a real sound server: ERLE of the whole canceller in issue 35's room at -65 dBFS after 10 s, from the --voice-debug recording (BenchmarkRoomERLE)",
		"yui/cmd/yui/e2e/room.BenchmarkRoomERLE", "ERLE-dB", 1, "dB", 25, false, true},
	{"ERLE, the rig, -45 dBFS", "The same at -45 dBFS, each stream's noise taken out (BenchmarkRoomERLE)",
		"yui/cmd/yui/e2e/room.BenchmarkRoomERLE", "ERLE-45-dB", 1, "dB", 25, false, true},
	{"barge-in, the rig", "Barge-in on a real sound server: the user's onset to the speaker's silence, median of ten tries (BenchmarkRoomBargeIn)",
		"yui/cmd/yui/e2e/room.BenchmarkRoomBargeIn", "barge-ms", 1, "ms", 600, false, false},
	{"barge-in, the rig, 9th of 10", "The same, the ninth fastest of ten: the issue asks 9 of 10 within 600 ms (BenchmarkRoomBargeIn)",
		"yui/cmd/yui/e2e/room.BenchmarkRoomBargeIn", "barge-9th-ms", 1, "ms", 600, false, false},
	{"VRM import, 5k triangles", "VRM import of the generated 5,000-triangle avatar into a pack at 192x256 (BenchmarkImport5k; issue 52: within 10 s on 2 cores)",
		"yui/pet/character/vrmpack.BenchmarkImport5k", "s/import", 1, "s", 10, true, false},
	{"VRM import, 100k triangles", "VRM import of a 100,000-triangle model with 4096² textures (BenchmarkImport100k4096; issue 52: within 60 s on 2 cores)",
		"yui/pet/character/vrmpack.BenchmarkImport100k4096", "s/import", 1, "s", 60, true, false},
	{"VRM import, 100k peak memory", "The same import's peak memory held by the Go runtime (BenchmarkImport100k4096; issue 52: under 1 GB)",
		"yui/pet/character/vrmpack.BenchmarkImport100k4096", "peak-MiB", 1, "MiB", 1000, true, false},
	// Issue 52: an idle VRM pet costs no more than the built-in character;
	// 1.1x leaves room for the noise of two processes side by side.
	{"idle CPU, VRM pet", "Idle CPU: a pet showing the imported test avatar ÷ a pet showing the built-in Yui, side by side (BenchmarkIdleVRMPetVsBuiltIn)",
		"yui/cmd/yui/e2e/bench.BenchmarkIdleVRMPetVsBuiltIn", "vrm-cpu-ratio", 1, "x", 1.1, false, false},
	{"idle wake-ups, VRM pet", "Idle context switches per second: the VRM pet ÷ the built-in Yui (BenchmarkIdleVRMPetVsBuiltIn)",
		"yui/cmd/yui/e2e/bench.BenchmarkIdleVRMPetVsBuiltIn", "vrm-cs-ratio", 1, "x", 1.1, false, false},
	{"idle wake-ups, GNOME Shell", "Idle context switches per second under GNOME Shell: the pet reading its extension's window facts ÷ the same pet reading XWayland's windows (BenchmarkGnomeIdle; issue 54: no more)",
		"yui/cmd/yui/e2e/wayland.BenchmarkGnomeIdle", "gnome/x11-wakeups", 1, "x", 1, false, false},
}

// Goal ratios of the developers' guide: one idle pet at most 1.2x a bare
// Fyne window's CPU and wake-ups, each pet past the first at most what a
// bare window past the first adds in RSS (the floor of one GL context a
// window), RSS growing by less than rssGrowthGoal over 10,000 turns; and
// the earlier goals of this report on the RSS of one and three pets.
const (
	rssRatioGoal = 1.25
	cpuRatioGoal = 1.2
	// Three pets in one process, against the same bare window.
	rss3RatioGoal = 1.2
	cpu3RatioGoal = 2.0
	// extraPetGoal is what each pet past the first may add, in MiB, when
	// the run has no bare windows to compare with.
	extraPetGoal = 6
	// csRatioGoal bounds an idle pet's wake-ups against the bare window's.
	csRatioGoal = 1.2
	// readyGapGoal is how long after the window shows the connection may
	// be ready, in ms.
	readyGapGoal  = 50
	rssGrowthGoal = 5 // MB (10^6 bytes)
	// cpuFloor keeps a ratio finite when the bare window used no CPU
	// the clock could see (0.01 s over a 40 s window).
	cpuFloor = 0.025 // percent
)

// Figures computes the goal table from one run's results, in report order.
func Figures(r Results) []Figure {
	var out []Figure
	out = append(out, idleFigures(r.Idle)...)
	out = append(out, startupFigure(r.Startup), readyGapFigure(r.Startup), firstFrameFigure(r.Frame))
	out = append(out, turnFigures(r.Turns)...)
	out = append(out, scaleFigures(r.Scale)...)
	out = append(out, latencyFigures(r.Latency)...)
	for _, g := range microGoals {
		out = append(out, microFigure(r.Bench, g))
	}
	return out
}

func microFigure(run *BenchRun, g microGoal) Figure {
	f := Figure{Name: g.name, What: g.what, Unit: g.shown, Goal: g.goal, Strict: g.strict, AtLeast: g.atLeast}
	v, err := run.Metric(g.key, g.unit)
	if err != nil {
		f.Missing = err.Error()
		return f
	}
	f.Measured = v * g.scale
	return f
}

func idleFigures(in Input[Idle]) []Figure {
	fs := []Figure{
		{Name: "idle RSS, 1 pet", What: "Idle resident set: 1 pet ÷ bare Fyne window (BenchmarkIdlePetVsBareWindow)", Unit: "x", Goal: rssRatioGoal},
		{Name: "idle CPU, 1 pet", What: "Idle CPU: 1 pet ÷ bare Fyne window (BenchmarkIdlePetVsBareWindow)", Unit: "x", Goal: cpuRatioGoal},
		{Name: "idle RSS, 3 pets", What: "Idle resident set: 3 pets in one process ÷ bare Fyne window", Unit: "x", Goal: rss3RatioGoal},
		{Name: "idle CPU, 3 pets", What: "Idle CPU: 3 pets in one process ÷ bare Fyne window", Unit: "x", Goal: cpu3RatioGoal},
		{Name: "RSS per extra pet", What: "Resident set each pet past the first adds: (3 pets − 1 pet) ÷ 2", Unit: "MiB", Goal: extraPetGoal},
		{Name: "idle wake-ups, 1 pet", What: "Idle context switches per second: 1 pet ÷ bare Fyne window (/proc/<pid>/task/*/status)", Unit: "x", Goal: csRatioGoal},
		{Name: "idle wake-ups, 3 pets", What: "Idle context switches per second: 3 pets ÷ bare Fyne window", Unit: "x"},
		{Name: "RSS per extra bare window", What: "Resident set each bare Fyne window past the first adds: (3 bare windows in one process − 1) ÷ 2, the floor under a pet's", Unit: "MiB"},
	}
	i := in.Value
	if i == nil {
		for k := range fs {
			fs[k].Missing = in.Status()
		}
		return fs
	}
	bareCPU := max(i.Bare.CPUPercent, cpuFloor)
	fs[0].Measured = float64(i.OnePet.RSSBytes) / float64(i.Bare.RSSBytes)
	fs[1].Measured = max(i.OnePet.CPUPercent, cpuFloor) / bareCPU
	fs[2].Measured = float64(i.ThreePets.RSSBytes) / float64(i.Bare.RSSBytes)
	fs[3].Measured = max(i.ThreePets.CPUPercent, cpuFloor) / bareCPU
	fs[4].Measured = mib(i.ThreePets.RSSBytes-i.OnePet.RSSBytes) / 2
	if i.Bare.CtxSwitches > 0 {
		fs[5].Measured = i.OnePet.CtxSwitches / i.Bare.CtxSwitches
		fs[5].Text = fmt.Sprintf("%sx (%s vs %s a second)", num(math.Round(fs[5].Measured*100)/100), num(i.OnePet.CtxSwitches), num(i.Bare.CtxSwitches))
		fs[6].Measured = i.ThreePets.CtxSwitches / i.Bare.CtxSwitches
		fs[6].Text = fmt.Sprintf("%sx (%s a second)", num(math.Round(fs[6].Measured*100)/100), num(i.ThreePets.CtxSwitches))
	} else {
		fs[5].Missing, fs[6].Missing = "not in this run's idle.json", "not in this run's idle.json"
	}
	if i.ThreeBare != nil {
		fs[7].Measured = mib(i.ThreeBare.RSSBytes-i.Bare.RSSBytes) / 2
		fs[4].Goal = math.Round(fs[7].Measured*100) / 100 // the floor: a bare window past the first
		fs[4].What += ", against a bare window past the first"
	} else {
		fs[7].Missing = "not in this run's idle.json"
	}
	for k := range fs {
		fs[k].Measured = math.Round(fs[k].Measured*100) / 100
	}
	return fs
}

func startupFigure(in Input[Startup]) Figure {
	f := Figure{Name: "start-up to ws_ready", What: "Start-up: process start to the first `ws_ready` against yui-sim, median (BenchmarkStartupToWSReady)", Unit: "ms"}
	if in.Value == nil {
		f.Missing = in.Status()
		return f
	}
	f.Measured = in.Value.Median()
	f.Text = fmt.Sprintf("%s ms (median of %d)", num(f.Measured), len(in.Value.RunsMS))
	return f
}

func readyGapFigure(in Input[Startup]) Figure {
	f := Figure{Name: "ws_ready after window", What: "Ready first: `ws_ready` after `pet_window_shown`, median (BenchmarkStartupToWSReady; negative: ready before the window)", Unit: "ms", Goal: readyGapGoal}
	switch {
	case in.Value == nil:
		f.Missing = in.Status()
	case len(in.Value.ReadyAfterShownMS) == 0:
		f.Missing = "not in this run's startup.json"
	default:
		f.Measured = median(in.Value.ReadyAfterShownMS)
		f.Text = fmt.Sprintf("%s ms (median of %d)", num(f.Measured), len(in.Value.ReadyAfterShownMS))
	}
	return f
}

func turnFigures(in Input[Turns]) []Figure {
	fs := []Figure{
		{Name: "RSS growth, 10,000 turns", What: "Resident set growth over 10,000 simulated turns (BenchmarkTenThousandTurns)", Unit: "MB", Goal: rssGrowthGoal, Strict: true},
		{Name: "goroutines, 10,000 turns", What: "Goroutines before → after 10,000 turns", Unit: ""},
		{Name: "open files, 10,000 turns", What: "Open file descriptors before → after 10,000 turns", Unit: ""},
	}
	t := in.Value
	if t == nil {
		for k := range fs {
			fs[k].Missing = in.Status()
		}
		return fs
	}
	fs[0].Measured = float64(t.RSSAfterBytes-t.RSSBeforeBytes) / 1e6
	fs[0].Text = fmt.Sprintf("%s MB (%s → %s MiB)", num(fs[0].Measured), num(mib(t.RSSBeforeBytes)), num(mib(t.RSSAfterBytes)))
	fs[1].Measured = float64(t.GoroutinesAfter - t.GoroutinesBefore)
	fs[1].Text = fmt.Sprintf("%d → %d (%+d)", t.GoroutinesBefore, t.GoroutinesAfter, t.GoroutinesAfter-t.GoroutinesBefore)
	fs[2].Measured = float64(t.FDsAfter - t.FDsBefore)
	fs[2].Text = fmt.Sprintf("%d → %d (%+d)", t.FDsBefore, t.FDsAfter, t.FDsAfter-t.FDsBefore)
	return fs
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
