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
func BenchmarkIdlePetVsBareWindow(b *testing.B) {
	dir := os.Getenv("YUI_E2E_BIN")
	if dir == "" {
		b.Skip("YUI_E2E_BIN not set; run `make bench`")
	}
	settle := 8 * time.Second
	window := 20 * time.Second
	if s := os.Getenv("YUI_BENCH_WINDOW"); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
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
		fmt.Printf("idle pet: %.1f MiB RSS, %.2f%% CPU; bare window: %.1f MiB RSS, %.2f%% CPU; ratios: RSS %.2fx (goal ≤ 1.25x), CPU %.2fx (goal ≤ 2x)\n",
			float64(res.petRSS)/(1<<20), 100*res.petCPU.Seconds()/window.Seconds(),
			float64(res.bareRSS)/(1<<20), 100*res.bareCPU.Seconds()/window.Seconds(),
			float64(res.petRSS)/float64(res.bareRSS), ratio)
	}
}

type idleResult struct {
	petRSS, bareRSS int64
	petCPU, bareCPU time.Duration
}

func measureIdle(b *testing.B, dir string, settle, window time.Duration) idleResult {
	d := startXvfb(b, 1280, 800)
	cfg := b.TempDir()
	env := append(d.env(), "YUI_KEY=")
	pet := start(b, env, filepath.Join(dir, "yui"), "--config-dir", cfg,
		"--chat-api", "push", "--chat-base-url", fmt.Sprintf("http://127.0.0.1:%d", freePort(b)))
	bare := start(b, env, filepath.Join(dir, "barewindow"))
	time.Sleep(settle)
	_, petCPU0, err1 := procUsage(pet.cmd.Process.Pid)
	_, bareCPU0, err2 := procUsage(bare.cmd.Process.Pid)
	if err1 != nil || err2 != nil {
		b.Fatalf("read usage: %v %v\npet: %s\nbare: %s", err1, err2, pet.output(), bare.output())
	}
	time.Sleep(window)
	petRSS, petCPU, _ := procUsage(pet.cmd.Process.Pid)
	bareRSS, bareCPU, _ := procUsage(bare.cmd.Process.Pid)
	return idleResult{petRSS: petRSS, bareRSS: bareRSS, petCPU: petCPU - petCPU0, bareCPU: bareCPU - bareCPU0}
}
