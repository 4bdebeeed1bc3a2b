package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// latencyFile is BenchmarkTurnLatency's result (cmd/yui/e2e/bench).
const latencyFile = "latency.json"

const latencyPNG = "latency.png"

// Goals of issue 37 on the time Yui adds beyond the servers' fixed
// delays: the voice round trip (end of speech to the reply's first sample,
// end-of-speech detection included) and a typed turn (Enter to it).
const (
	voiceAddedGoal = 250 // ms
	typedAddedGoal = 30  // ms
)

// LatencySpan is one part of a turn's way to its first sample.
type LatencySpan struct {
	Part string  `json:"part"`
	Yui  bool    `json:"yui"` // the client's time, not a server's
	MS   float64 `json:"ms"`
}

// LatencyPath is one way in (voice or typed), its parts in order.
type LatencyPath struct {
	Path     string        `json:"path"`
	Spans    []LatencySpan `json:"spans"`
	TotalMS  float64       `json:"total_ms"`
	AddedMS  float64       `json:"yui_added_ms"`
	FillerMS float64       `json:"filler_ms"`
}

// Latency is latency.json: the voice round trip and the typed turn.
type Latency []LatencyPath

func (l *Latency) validate() error {
	if len(*l) == 0 {
		return fmt.Errorf("no paths")
	}
	for _, p := range *l {
		if p.Path == "" || len(p.Spans) == 0 {
			return fmt.Errorf("path %q has no spans", p.Path)
		}
		for _, s := range p.Spans {
			if s.MS < -1 || s.MS > 60_000 {
				return fmt.Errorf("%s: %q lasts %g ms", p.Path, s.Part, s.MS)
			}
		}
	}
	return nil
}

// path is the named path, nil when the run has none.
func (l *Latency) path(name string) *LatencyPath {
	for i := range *l {
		if (*l)[i].Path == name {
			return &(*l)[i]
		}
	}
	return nil
}

// latencyFigures are the two goals on the time Yui adds.
func latencyFigures(in Input[Latency]) []Figure {
	figs := []Figure{
		{Name: "voice round trip, Yui's part", Unit: "ms", Goal: voiceAddedGoal,
			What: "Voice round trip: end of speech to the reply's first sample, less the servers' fixed delays (BenchmarkTurnLatency; issue 37, end-of-speech detection included)"},
		{Name: "typed turn, Yui's part", Unit: "ms", Goal: typedAddedGoal,
			What: "Typed turn: Enter to the reply's first sample, less the servers' fixed delays (BenchmarkTurnLatency; issue 37)"},
		{Name: "typed turn over push, Yui's part", Unit: "ms", Goal: typedAddedGoal,
			What: "Typed turn over push: Enter to the first sample, less yui-sim's 500 ms and the speech server's delay (BenchmarkTurnLatency)"},
	}
	for i, name := range []string{"voice", "typed", "push"} {
		if in.Value == nil {
			figs[i].Missing = in.Status()
			continue
		}
		p := in.Value.path(name)
		if p == nil {
			figs[i].Missing = "no " + name + " path in " + latencyFile
			continue
		}
		figs[i].Measured = p.AddedMS
	}
	return figs
}

var serverColour = color.RGBA{0xc9, 0xc9, 0xc9, 0xff}

// plotLatency draws each path as a stacked horizontal bar of its parts:
// Yui's in blue shades, the servers' in grey, each labelled.
func plotLatency(path string, l *Latency) error {
	p := plot.New()
	p.Title.Text = "Where a turn's time goes, to the reply's first sample"
	p.X.Label.Text = "ms"
	var names []string
	shades := []color.Color{barColour, color.RGBA{0x2c, 0x7f, 0x5e, 0xff}, color.RGBA{0x9a, 0x6a, 0x1e, 0xff}, color.RGBA{0x7b, 0x4f, 0x9d, 0xff}}
	var xys plotter.XYs
	var texts []string
	for row, lp := range *l {
		names = append(names, fmt.Sprintf("%s (Yui %s ms)", lp.Path, num(lp.AddedMS)))
		at, yui := 0.0, 0
		var prev *plotter.BarChart
		for _, s := range lp.Spans {
			one := make(plotter.Values, len(*l))
			one[row] = max(s.MS, 0)
			bar, err := plotter.NewBarChart(one, vg.Points(28))
			if err != nil {
				return err
			}
			bar.Horizontal, bar.Offset, bar.LineStyle.Width = true, 0, 0
			bar.Color = serverColour
			if s.Yui {
				bar.Color = shades[yui%len(shades)]
				yui++
			}
			if prev != nil {
				bar.StackOn(prev) // starts where the part before it ends
			}
			prev = bar
			p.Add(bar)
			if s.MS >= 40 {
				xys = append(xys, plotter.XY{X: at + s.MS/2, Y: float64(row) + 0.3})
				texts = append(texts, fmt.Sprintf("%s %s", shortPart(s.Part), num(s.MS)))
			}
			at += max(s.MS, 0)
		}
	}
	if len(xys) > 0 {
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
		if err != nil {
			return err
		}
		p.Add(labels)
	}
	p.NominalY(names...)
	p.X.Min = 0
	return writePNG(path, vg.Points(900), vg.Points(260), false, p)
}

// shortPart is a span's name as the plot labels it.
func shortPart(part string) string {
	for _, k := range []struct{ has, short string }{
		{"transcription server", "STT"}, {"model server", "model"}, {"speech server", "TTS"},
		{"backend", "backend"}, {"end of speech", "detection"}, {"chat request", "request"}, {"turn frame", "request"},
		{"speech request", "handoff"}, {"first sample", "playback"},
	} {
		if strings.Contains(part, k.has) {
			return k.short
		}
	}
	return part
}

// writeLatency is the report's latency section.
func writeLatency(p func(string, ...any), img func(string) string, imgDir string, in Input[Latency]) error {
	p("## Latency: voice round trip and typed turn\n\n")
	l := in.Value
	if l == nil {
		if err := removeStale(filepath.Join(imgDir, latencyPNG)); err != nil {
			return err
		}
		p("Not measured: %s (BenchmarkTurnLatency writes it).\n\n", in.Status())
		return nil
	}
	if err := plotLatency(filepath.Join(imgDir, latencyPNG), l); err != nil {
		return err
	}
	p("![Where the voice round trip's and the typed turn's time goes](%s)\n\n", img(latencyPNG))
	p("BenchmarkTurnLatency runs the real `yui` under Xvfb against servers with fixed delays: a\n")
	p("Whisper-compatible server answering 300 ms after the upload, a Chat Completions server streaming its\n")
	p("first token 400 ms after the request and one every 20 ms (the first sentence ends with the seventh),\n")
	p("and a speech server whose first audio comes 150 ms after its request. Each server stamps when its\n")
	p("request arrived and when it answered; grey is the servers' time, colour is Yui's. Over push, `yui-sim`\n")
	p("renders the first sentence 500 ms after the turn frame (its `sim_frame` record).\n\n")
	for _, lp := range *l {
		p("**%s**: %s ms to the reply's first sample, of which Yui's **%s ms**", lp.Path, num(lp.TotalMS), num(lp.AddedMS))
		if lp.FillerMS > 0 {
			p("; the first sound (the character's filler line) after %s ms", num(lp.FillerMS))
		}
		p(".\n\n| part | whose | ms |\n|---|---|---|\n")
		for _, s := range lp.Spans {
			who := "server"
			if s.Yui {
				who = "Yui"
			}
			p("| %s | %s | %s |\n", s.Part, who, num(s.MS))
		}
		p("\n")
	}
	p("%s", latencyDesign)
	return nil
}
