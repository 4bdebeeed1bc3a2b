package main

import (
	"fmt"
	"image/color"
	"os"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The report's plots, by file name under the image directory.
const (
	idlePNG  = "idle.png"
	turnsPNG = "turns.png"
	microPNG = "micro.png"
)

var (
	barColour  = color.RGBA{0x4c, 0x78, 0xa8, 0xff}
	goalColour = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	failColour = color.RGBA{0xe3, 0x7b, 0x7c, 0xff}
	bareColour = color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
	lineColour = color.RGBA{0x2c, 0x7f, 0x5e, 0xff}
	fdColour   = color.RGBA{0x9a, 0x6a, 0x1e, 0xff}
	dashes     = []vg.Length{vg.Points(6), vg.Points(3)}
)

const dpi = 96

// writePNG draws the plots in one row (or one column when vertical) and
// saves them as a PNG of w x h points.
func writePNG(path string, w, h vg.Length, vertical bool, plots ...*plot.Plot) error {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	dc := draw.New(img)
	row := [][]*plot.Plot{plots}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(24), PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(12)}
	if vertical {
		row = make([][]*plot.Plot, len(plots))
		for i, p := range plots {
			row[i] = []*plot.Plot{p}
		}
		tiles = draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(18), PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(12)}
	}
	canvases := plot.Align(row, tiles, dc)
	for i, r := range row {
		for j, p := range r {
			p.Draw(canvases[i][j])
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create plot %s: %w", path, err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("write plot %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write plot %s: %w", path, err)
	}
	return nil
}

// addBars adds one bar per value at x (or y, horizontal) 0, 1, ..., each
// in its own colour.
func addBars(p *plot.Plot, values []float64, colours []color.Color, width vg.Length, horizontal bool) error {
	for i, v := range values {
		one := make(plotter.Values, len(values))
		one[i] = v
		bars, err := plotter.NewBarChart(one, width)
		if err != nil {
			return err
		}
		bars.Color = colours[i]
		bars.LineStyle.Width = 0
		bars.Horizontal = horizontal
		p.Add(bars)
	}
	return nil
}

// barPlot is a bar per value over nominal x labels, each bar labelled
// with its value, and a dashed goal line over the bar at goalAt.
// barGoal is a goal drawn as a dashed line over bar at.
type barGoal struct {
	at    int
	value float64
	label string
}

func barPlot(title, yLabel string, names []string, values []float64, colours []color.Color, format func(float64) string, goals ...barGoal) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	if err := addBars(p, values, colours, vg.Points(44), false); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	top := 0.0
	for _, v := range values {
		top = max(top, v)
	}
	for _, g := range goals {
		top = max(top, g.value)
	}
	p.Y.Min, p.Y.Max = 0, top*(1.1+0.1*float64(len(goals))) // room for the legend's lines
	for _, g := range goals {
		line, err := plotter.NewLine(plotter.XYs{{X: float64(g.at) - 0.45, Y: g.value}, {X: float64(g.at) + 0.45, Y: g.value}})
		if err != nil {
			return nil, err
		}
		line.Color = goalColour
		line.Width = vg.Points(2)
		line.Dashes = dashes
		p.Add(line)
		p.Legend.Add(g.label, line)
	}
	p.Legend.Top = true
	var xys plotter.XYs
	var texts []string
	for i, v := range values {
		xys = append(xys, plotter.XY{X: float64(i), Y: v})
		texts = append(texts, format(v))
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign = draw.XCenter
	}
	labels.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(labels)
	return p, nil
}

// plotIdle draws idle RSS and CPU of the bare window, 1 pet and 3 pets,
// with the goals of 1 pet and of 3 pets as dashed lines.
func plotIdle(path string, i *Idle) error {
	names := []string{"bare window", "1 pet", "3 pets"}
	us := []*Usage{i.Bare, i.OnePet, i.ThreePets}
	var rss, cpu []float64
	for _, u := range us {
		rss = append(rss, mib(u.RSSBytes))
		cpu = append(cpu, u.CPUPercent)
	}
	window := fmt.Sprintf(" (over %ss)", num(i.WindowSeconds))
	cpuBare := max(cpu[0], cpuFloor)
	rssGoal, rss3Goal := rssRatioGoal*rss[0], rss3RatioGoal*rss[0]
	cpuGoal, cpu3Goal := cpuRatioGoal*cpuBare, cpu3RatioGoal*cpuBare
	pr, err := barPlot("Idle resident set"+window, "RSS (MiB)", names, rss, idleColours(rss[1] <= rssGoal, rss[2] <= rss3Goal),
		func(v float64) string { return num(v) + " MiB" },
		barGoal{1, rssGoal, fmt.Sprintf("goal for 1 pet: ≤ %sx bare", num(rssRatioGoal))},
		barGoal{2, rss3Goal, fmt.Sprintf("goal for 3 pets: ≤ %sx bare", num(rss3RatioGoal))})
	if err != nil {
		return err
	}
	pc, err := barPlot("Idle CPU"+window, "CPU (% of one core)", names, cpu, idleColours(max(cpu[1], cpuFloor) <= cpuGoal, cpu[2] <= cpu3Goal),
		func(v float64) string { return num(v) + "%" },
		barGoal{1, cpuGoal, fmt.Sprintf("goal for 1 pet: ≤ %sx bare", num(cpuRatioGoal))},
		barGoal{2, cpu3Goal, fmt.Sprintf("goal for 3 pets: ≤ %sx bare", num(cpu3RatioGoal))})
	if err != nil {
		return err
	}
	if i.Bare.CtxSwitches <= 0 { // a file from before wake-ups were measured
		return writePNG(path, vg.Points(720), vg.Points(320), false, pr, pc)
	}
	var cs []float64
	for _, u := range us {
		cs = append(cs, u.CtxSwitches)
	}
	csGoal := csRatioGoal * cs[0]
	pw, err := barPlot("Idle wake-ups"+window, "context switches a second", names, cs, idleColours(cs[1] <= csGoal, true),
		func(v float64) string { return num(v) },
		barGoal{1, csGoal, fmt.Sprintf("goal for 1 pet: ≤ %sx bare", num(csRatioGoal))})
	if err != nil {
		return err
	}
	return writePNG(path, vg.Points(1080), vg.Points(320), false, pr, pc, pw)
}

// idleColours: the bare window grey, the pets blue, a pets' bar red when
// it misses its goal.
func idleColours(onePetPasses, threePetsPass bool) []color.Color {
	bar := func(pass bool) color.Color {
		if pass {
			return barColour
		}
		return failColour
	}
	return []color.Color{bareColour, bar(onePetPasses), bar(threePetsPass)}
}

// plotTurns draws RSS, goroutines and open files over the turns, with the
// RSS growth limit as a dashed line.
func plotTurns(path string, t *Turns) error {
	var rss, gor, fds plotter.XYs
	for _, s := range t.Series {
		rss = append(rss, plotter.XY{X: float64(s.Turn), Y: mib(s.RSSBytes)})
		gor = append(gor, plotter.XY{X: float64(s.Turn), Y: float64(s.Goroutines)})
		fds = append(fds, plotter.XY{X: float64(s.Turn), Y: float64(s.FDs)})
	}
	if len(t.Series) == 0 { // before and after only
		rss = plotter.XYs{{X: 0, Y: mib(t.RSSBeforeBytes)}, {X: float64(t.Turns), Y: mib(t.RSSAfterBytes)}}
		gor = plotter.XYs{{X: 0, Y: float64(t.GoroutinesBefore)}, {X: float64(t.Turns), Y: float64(t.GoroutinesAfter)}}
		fds = plotter.XYs{{X: 0, Y: float64(t.FDsBefore)}, {X: float64(t.Turns), Y: float64(t.FDsAfter)}}
	}
	pr := plot.New()
	pr.Title.Text = fmt.Sprintf("Resident set over %s turns", grouped(t.Turns))
	pr.X.Label.Text = "turn"
	pr.Y.Label.Text = "RSS (MiB)"
	l, err := plotter.NewLine(rss)
	if err != nil {
		return fmt.Errorf("turns plot: %w", err)
	}
	l.Color, l.Width = lineColour, vg.Points(1.5)
	pr.Add(l)
	pr.Legend.Add("RSS", l)
	limit := mib(t.RSSBeforeBytes) + rssGrowthGoal*1e6/(1<<20)
	g, err := plotter.NewLine(plotter.XYs{{X: 0, Y: limit}, {X: float64(t.Turns), Y: limit}})
	if err != nil {
		return fmt.Errorf("turns plot: %w", err)
	}
	g.Color, g.Width, g.Dashes = goalColour, vg.Points(1.5), dashes
	pr.Add(g)
	pr.Legend.Add(fmt.Sprintf("goal: start + %d MB", rssGrowthGoal), g)
	pr.Legend.Top, pr.Legend.Left = false, false
	pr.Legend.YOffs = vg.Points(4)
	// Zoomed to the series and the limit, so that growth of a few MiB shows.
	lo, hi := limit, limit
	for _, p := range rss {
		lo, hi = min(lo, p.Y), max(hi, p.Y)
	}
	pr.Y.Min, pr.Y.Max = max(0, lo-10), hi+5
	pr.Add(plotter.NewGrid())

	pg := plot.New()
	pg.Title.Text = "Goroutines and open files"
	pg.X.Label.Text = "turn"
	pg.Y.Label.Text = "count"
	lg, err := plotter.NewLine(gor)
	if err != nil {
		return fmt.Errorf("turns plot: %w", err)
	}
	lg.Color, lg.Width = lineColour, vg.Points(1.5)
	lf, err := plotter.NewLine(fds)
	if err != nil {
		return fmt.Errorf("turns plot: %w", err)
	}
	lf.Color, lf.Width = fdColour, vg.Points(1.5)
	pg.Add(lg, lf, plotter.NewGrid())
	pg.Legend.Add("goroutines", lg)
	pg.Legend.Add("open files", lf)
	pg.Y.Min = 0
	pg.Y.Max *= 1.3
	pg.Y.Tick.Marker = plainTicks{}
	pr.Y.Tick.Marker = plainTicks{}
	pg.Legend.Top = false
	return writePNG(path, vg.Points(640), vg.Points(480), true, pr, pg)
}

// plotMicro draws each micro-benchmark figure as a percentage of its goal.
func plotMicro(path string, figs []Figure) error {
	// Top to bottom in table order: the y axis counts upwards.
	var names, texts []string
	var pct []float64
	for k := len(figs) - 1; k >= 0; k-- {
		f := figs[k]
		names = append(names, f.Name)
		switch {
		case f.Missing != "":
			pct = append(pct, 0)
			texts = append(texts, "not measured")
			continue
		case f.Goal == 0: // reported, no goal to be a share of
			pct = append(pct, 0)
			texts = append(texts, withUnit(f.Measured, f.Unit)+", reported")
			continue
		case f.AtLeast: // a floor: the goal as a share of the figure, so that shorter is better here too
			pct = append(pct, 100*f.Goal/max(f.Measured, 1e-9))
			texts = append(texts, fmt.Sprintf("%s, at least %s", withUnit(f.Measured, f.Unit), withUnit(f.Goal, f.Unit)))
			continue
		}
		pct = append(pct, 100*f.Measured/f.Goal)
		texts = append(texts, fmt.Sprintf("%s of %s", withUnit(f.Measured, f.Unit), withUnit(f.Goal, f.Unit)))
	}
	p := plot.New()
	p.Title.Text = "Micro-benchmarks: measured as a share of the goal"
	p.X.Label.Text = "% of goal (shorter is better; past the dashed line fails)"
	var colours []color.Color
	for _, v := range pct {
		if v >= 100 {
			colours = append(colours, failColour)
		} else {
			colours = append(colours, barColour)
		}
	}
	if err := addBars(p, pct, colours, vg.Points(14), true); err != nil {
		return fmt.Errorf("micro plot: %w", err)
	}
	p.NominalY(names...)
	top := 100.0
	for _, v := range pct {
		top = max(top, v)
	}
	p.X.Min, p.X.Max = 0, top*1.6
	g, err := plotter.NewLine(plotter.XYs{{X: 100, Y: -0.5}, {X: 100, Y: float64(len(pct)) - 0.5}})
	if err != nil {
		return fmt.Errorf("micro plot: %w", err)
	}
	g.Color, g.Width, g.Dashes = goalColour, vg.Points(1.5), dashes
	p.Add(g)
	p.Legend.Add("goal (100%)", g)
	var xys plotter.XYs
	for i, v := range pct {
		xys = append(xys, plotter.XY{X: v, Y: float64(i)})
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return fmt.Errorf("micro plot: %w", err)
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].YAlign = draw.YCenter
	}
	labels.Offset = vg.Point{X: vg.Points(4)}
	p.Add(labels)
	p.Legend.Top = true
	return writePNG(path, vg.Points(720), vg.Points(float64(90+24*len(pct))), false, p)
}

// plainTicks are gonum's default ticks labelled without trailing zeros.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}
