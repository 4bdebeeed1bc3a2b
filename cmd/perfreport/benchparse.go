package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Bench is one benchmark's result line of `go test -bench` output.
type Bench struct {
	Pkg     string             // import path from the preceding "pkg:" line
	Name    string             // BenchmarkX or BenchmarkX/sub, without the -GOMAXPROCS suffix
	Iters   int64              // iterations the figures are averaged over
	Metrics map[string]float64 // unit → value: "ns/op", "B/op", "allocs/op", custom ones
}

// Key names a benchmark across packages: "yui/transport/push.BenchmarkRenderDecodeDispatch".
func (b Bench) Key() string { return b.Pkg + "." + b.Name }

// BenchRun is everything read from one or more `go test -bench` outputs.
type BenchRun struct {
	Benches map[string]Bench  // by Key
	Failed  map[string]string // benchmark or package key → why it gave no figures
	CPU     string            // the "cpu:" line, when go test printed one
	GOOS    string
	GOARCH  string
}

func newBenchRun() *BenchRun {
	return &BenchRun{Benches: map[string]Bench{}, Failed: map[string]string{}}
}

// Sorted returns the benchmarks ordered by package, then name.
func (r *BenchRun) Sorted() []Bench {
	out := make([]Bench, 0, len(r.Benches))
	for _, b := range r.Benches {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// Metric returns one figure of the benchmark key, or why there is none.
func (r *BenchRun) Metric(key, unit string) (float64, error) {
	b, ok := r.Benches[key]
	if !ok {
		if why, failed := r.Failed[key]; failed {
			return 0, fmt.Errorf("%s %s", short(key), why)
		}
		pkg := key[:max(strings.LastIndex(key, ".Benchmark"), 0)]
		if why, failed := r.Failed[pkg]; failed {
			return 0, fmt.Errorf("package %s %s", pkg, why)
		}
		return 0, fmt.Errorf("%s is not in the benchmark output", short(key))
	}
	v, ok := b.Metrics[unit]
	if !ok {
		return 0, fmt.Errorf("%s reported no %s", short(key), unit)
	}
	return v, nil
}

// short is a benchmark key without its package path.
func short(key string) string {
	if i := strings.LastIndex(key, ".Benchmark"); i >= 0 {
		return key[i+1:]
	}
	return key
}

var (
	procsSuffix = regexp.MustCompile(`-\d+$`)
	failLine    = regexp.MustCompile(`--- (FAIL|SKIP): (Benchmark\S+)`)
	pkgFail     = regexp.MustCompile(`^FAIL\s+(\S+)\s+(.*)$`)
)

// ParseBench reads `go test -bench` text output, as `go test` prints it
// with stdout and stderr together: a benchmark that writes to stderr
// while it runs splits its name from its figures, so a name line without
// figures waits for the next line that has them. Lines that are not
// benchmark output are skipped. A benchmark line whose figures do not
// parse leaves that benchmark in Failed with the reason and its line
// number, so its goal reads "not measured"; the error is only for a
// reader that fails.
func ParseBench(r io.Reader, into *BenchRun) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	pkg, pending := "", ""
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg, pending = strings.TrimSpace(strings.TrimPrefix(line, "pkg: ")), ""
			continue
		case strings.HasPrefix(line, "cpu: "):
			into.CPU = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
			continue
		case strings.HasPrefix(line, "goos: "):
			into.GOOS = strings.TrimSpace(strings.TrimPrefix(line, "goos: "))
			continue
		case strings.HasPrefix(line, "goarch: "):
			into.GOARCH = strings.TrimSpace(strings.TrimPrefix(line, "goarch: "))
			continue
		}
		if m := failLine.FindStringSubmatch(line); m != nil {
			name := procsSuffix.ReplaceAllString(m[2], "")
			if m[1] == "FAIL" {
				into.Failed[pkg+"."+name] = "failed"
			} else {
				into.Failed[pkg+"."+name] = "was skipped"
			}
			pending = ""
			continue
		}
		if m := pkgFail.FindStringSubmatch(line); m != nil {
			if _, ok := into.Failed[m[1]]; !ok {
				why := strings.TrimSpace(m[2])
				if strings.HasPrefix(why, "[") {
					into.Failed[m[1]] = "failed " + why // [build failed], [setup failed]
				} else {
					into.Failed[m[1]] = "failed after " + why
				}
			}
			continue
		}
		if strings.HasPrefix(line, "Benchmark") {
			f := strings.Fields(line)
			name := procsSuffix.ReplaceAllString(f[0], "")
			if len(f) == 1 || !startsWithCount(f[1]) {
				pending = name // figures follow on a later line
				continue
			}
			b, err := parseFigures(pkg, name, f[1:])
			if err != nil {
				// Perhaps stderr text that starts with a number: the
				// figures may still follow.
				into.Failed[pkg+"."+name] = fmt.Sprintf("gave figures that do not parse (line %d: %v)", n, err)
				pending = name
				continue
			}
			into.add(b)
			pending = ""
			continue
		}
		if pending != "" {
			f := strings.Fields(line)
			if len(f) >= 3 && startsWithCount(f[0]) && isUnit(f[2]) {
				b, err := parseFigures(pkg, pending, f)
				if err != nil {
					into.Failed[pkg+"."+pending] = fmt.Sprintf("gave figures that do not parse (line %d: %v)", n, err)
				} else {
					into.add(b)
				}
				pending = ""
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read benchmark output: %w", err)
	}
	return nil
}

// add keeps b's figures; figures that parse supersede an earlier line of
// the same benchmark that did not.
func (r *BenchRun) add(b Bench) {
	r.Benches[b.Key()] = b
	delete(r.Failed, b.Key())
}

func startsWithCount(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// isUnit reports whether s looks like a benchmark unit (ns/op, x-realtime, MB/s).
func isUnit(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err != nil && s != ""
}

// parseFigures reads "N v1 unit1 v2 unit2 ...".
func parseFigures(pkg, name string, f []string) (Bench, error) {
	iters, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || iters <= 0 {
		return Bench{}, fmt.Errorf("%s: iteration count %q is not a positive integer", name, f[0])
	}
	if len(f) < 3 || len(f)%2 != 1 {
		return Bench{}, fmt.Errorf("%s: figures %q are not value-unit pairs", name, strings.Join(f[1:], " "))
	}
	b := Bench{Pkg: pkg, Name: name, Iters: iters, Metrics: map[string]float64{}}
	for i := 1; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Bench{}, fmt.Errorf("%s: value %q of %s is not a number", name, f[i], f[i+1])
		}
		b.Metrics[f[i+1]] = v
	}
	return b, nil
}
