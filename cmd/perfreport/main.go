// Command perfreport writes docs/performance.md and its plots from one
// `make bench` run: the `go test -bench` text output of the micro and e2e
// benchmarks, and the JSON files the e2e benchmarks write into
// $YUI_BENCH_OUT. Plots are drawn with gonum.org/v1/plot; only this
// program links it, never the yui binary.
//
//	perfreport -data DIR -out docs/performance.md -img docs/performance BENCH.txt...
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	data := flag.String("data", os.Getenv("YUI_BENCH_OUT"), "the `directory` the e2e benchmarks wrote their JSON into")
	out := flag.String("out", "docs/performance.md", "the report to write")
	img := flag.String("img", "docs/performance", "the `directory` for the plots")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: perfreport [flags] BENCH-OUTPUT...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*data, *out, *img, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "perfreport:", err)
		os.Exit(1)
	}
}

// loadAverage is the one-minute load average from a copy of /proc/loadavg
// `make bench` left in dir, or "" when there is none.
func loadAverage(dir, name string) string {
	if dir == "" {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return ""
	}
	if _, err := strconv.ParseFloat(f[0], 64); err != nil {
		return ""
	}
	return f[0]
}

func run(data, out, img string, benchFiles []string) error {
	bench := newBenchRun()
	for _, name := range benchFiles {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("benchmark output: %w", err)
		}
		err = ParseBench(f, bench)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	r := readResults(bench, data)
	for _, in := range []struct {
		name string
		err  error
	}{{idleFile, r.Idle.Err}, {startupFile, r.Startup.Err}, {turnsFile, r.Turns.Err}} {
		if in.err != nil {
			fmt.Fprintln(os.Stderr, "perfreport:", in.err)
		}
	}
	m := Machine{
		CPU:        bench.CPU,
		CPUs:       runtime.NumCPU(),
		GoVersion:  runtime.Version(),
		OS:         runtime.GOOS + "/" + runtime.GOARCH,
		Date:       time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		LoadBefore: loadAverage(data, "loadavg-before"),
		LoadAfter:  loadAverage(data, "loadavg-after"),
	}
	if err := Write(out, img, r, m); err != nil {
		return err
	}
	fmt.Printf("perfreport: wrote %s and its plots in %s\n", out, img)
	return nil
}
