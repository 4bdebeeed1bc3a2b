//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procUsage reads a process's resident set (bytes) and CPU time so far.
func procUsage(pid int) (rss int64, cpu time.Duration, err error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			rss = kb * 1024
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	rest := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, _ := strconv.ParseInt(rest[11], 10, 64)
	stime, _ := strconv.ParseInt(rest[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	cpu = time.Duration(utime+stime) * time.Second / ticks
	return rss, cpu, nil
}

// BenchmarkIdlePetVsBareWindow runs the idle pet (idle motion playing) and a
// bare Fyne window with one label side by side under one Xvfb, and reports
// both and their ratios. Goals: RSS within 1.25x, CPU within 2x.
//
// Both processes settle (start-up, first frames, the pet's start-up garbage
// returned) before the measuring window. RSS is the mean of samples taken
// every second through the window, CPU the time used over the whole
// window: a VM's scheduling noise moves single readings of a 2%-CPU
// process a lot. YUI_BENCH_WINDOW (a Go duration) changes the window.
func BenchmarkIdlePetVsBareWindow(b *testing.B) {
	dir := os.Getenv("YUI_E2E_BIN")
	if dir == "" {
		b.Skip("YUI_E2E_BIN not set; run `make bench`")
	}
	settle := 12 * time.Second
	window := 40 * time.Second
	if s := os.Getenv("YUI_BENCH_WINDOW"); s != "" {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			window = d
		}
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		res := measureIdle(b, dir, settle, window)
		b.ReportMetric(float64(res.petRSS)/(1<<20), "pet-MiB")
		b.ReportMetric(float64(res.bareRSS)/(1<<20), "bare-MiB")
		b.ReportMetric(float64(res.petRSS)/float64(res.bareRSS), "rss-ratio")
		b.ReportMetric(100*res.petCPU.Seconds()/window.Seconds(), "pet-cpu%")
		b.ReportMetric(100*res.bareCPU.Seconds()/window.Seconds(), "bare-cpu%")
		ratio := res.petCPU.Seconds() / max(res.bareCPU.Seconds(), 0.01)
		b.ReportMetric(ratio, "cpu-ratio")
		line := fmt.Sprintf("idle pet: %.1f MiB RSS, %.2f%% CPU; bare window: %.1f MiB RSS, %.2f%% CPU; ratios: RSS %.2fx (goal ≤ 1.25x), CPU %.2fx (goal ≤ 2x) over %s",
			float64(res.petRSS)/(1<<20), 100*res.petCPU.Seconds()/window.Seconds(),
			float64(res.bareRSS)/(1<<20), 100*res.bareCPU.Seconds()/window.Seconds(),
			float64(res.petRSS)/float64(res.bareRSS), ratio, window)
		// go test shows a benchmark's log only with -v; stderr always.
		b.Log(line)
		fmt.Fprintln(os.Stderr, line)
	}
}

type idleResult struct {
	petRSS, bareRSS int64
	petCPU, bareCPU time.Duration
}

func measureIdle(b *testing.B, dir string, settle, window time.Duration) idleResult {
	// startXvfb's cleanup kills Xvfb, which leaves its lock file behind;
	// this cleanup, registered first, runs after it and removes it, so
	// repeated runs do not use up the display numbers.
	var d *display
	b.Cleanup(func() {
		if d != nil {
			n := strings.TrimPrefix(d.name, ":")
			_ = os.Remove("/tmp/.X" + n + "-lock")
			_ = os.Remove("/tmp/.X11-unix/X" + n)
		}
	})
	d = startXvfb(b, 1280, 800)
	cfg := b.TempDir()
	// The pet idles with its audio context open: Xvfb machines have no
	// sound card, so ALSA's default device is the null one here.
	home := b.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte("pcm.!default { type null }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := append(d.env(), "YUI_KEY=", "HOME="+home)
	pet := start(b, env, filepath.Join(dir, "yui"), "--config-dir", cfg,
		"--chat-api", "push", "--chat-base-url", fmt.Sprintf("http://127.0.0.1:%d", freePort(b)))
	bare := start(b, env, filepath.Join(dir, "barewindow"))
	time.Sleep(settle)
	if logs, _ := filepath.Glob(filepath.Join(cfg, "logs", "*")); len(logs) > 0 {
		if data, err := os.ReadFile(logs[0]); err == nil && !strings.Contains(string(data), `"msg":"audio_open"`) {
			b.Log("the pet did not open its audio context")
		}
	}
	_, petCPU0, err1 := procUsage(pet.cmd.Process.Pid)
	_, bareCPU0, err2 := procUsage(bare.cmd.Process.Pid)
	if err1 != nil || err2 != nil {
		b.Fatalf("read usage: %v %v\npet: %s\nbare: %s", err1, err2, pet.output(), bare.output())
	}
	var petRSS, bareRSS int64
	n := int64(0)
	for end := time.Now().Add(window); time.Now().Before(end); {
		time.Sleep(min(time.Second, time.Until(end)))
		p, _, err1 := procUsage(pet.cmd.Process.Pid)
		q, _, err2 := procUsage(bare.cmd.Process.Pid)
		if err1 != nil || err2 != nil {
			b.Fatalf("read usage: %v %v\npet: %s\nbare: %s", err1, err2, pet.output(), bare.output())
		}
		petRSS += p
		bareRSS += q
		n++
	}
	_, petCPU, _ := procUsage(pet.cmd.Process.Pid)
	_, bareCPU, _ := procUsage(bare.cmd.Process.Pid)
	return idleResult{petRSS: petRSS / n, bareRSS: bareRSS / n, petCPU: petCPU - petCPU0, bareCPU: bareCPU - bareCPU0}
}
