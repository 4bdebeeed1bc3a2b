//go:build e2e

package xvfb

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// chaosSim is a yui-sim --chaos run, restarted on the same port as the
// test asks; it keeps every run's output so the test can count what the
// simulator did.
type chaosSim struct {
	t     testing.TB
	port  int
	key   string
	seed  uint64
	runs  []*harness.Sim
	url   string
	seeds []uint64
}

func (c *chaosSim) start() {
	c.t.Helper()
	seed := c.seed + uint64(len(c.runs))
	addr := fmt.Sprintf("127.0.0.1:%d", c.port)
	rec := filepath.Join(c.t.TempDir(), "frames.jsonl")
	p := harness.Start(c.t, os.Environ(), filepath.Join(harness.BinDir(c.t), "yui-sim"),
		"--addr", addr, "--key", c.key, "--chaos", strconv.FormatUint(seed, 10), "--record", rec)
	harness.WaitFor(c.t, 10*time.Second, "yui-sim ready", func() bool { return strings.Contains(p.Output(), "yui-sim ready") })
	c.runs = append(c.runs, &harness.Sim{Proc: p, Url: "http://" + addr, Record: rec})
	c.seeds = append(c.seeds, seed)
	c.url = "http://" + addr
}

func (c *chaosSim) stop() { c.runs[len(c.runs)-1].Proc.Stop() }

// chaosTurn is what the simulator logged for one turn.
type chaosTurn struct {
	seed   uint64
	seq    int
	action string
	point  string
}

var simChaosLine = regexp.MustCompile(`msg=sim_chaos seq=(\d+) turn_id=(\S+) action=(\w+)(?: point=(\w+))?`)

// turns returns what the simulator did, by turn_id, over every run.
func (c *chaosSim) turns() map[string]chaosTurn {
	out := map[string]chaosTurn{}
	for i, r := range c.runs {
		for _, m := range simChaosLine.FindAllStringSubmatch(r.Proc.Output(), -1) {
			seq, _ := strconv.Atoi(m[1])
			out[m[2]] = chaosTurn{seed: c.seeds[i], seq: seq, action: m[3], point: m[4]}
		}
	}
	return out
}

func (c *chaosSim) kills() int {
	n := 0
	for _, tr := range c.turns() {
		if tr.action == "kill" {
			n++
		}
	}
	return n
}

// The real yui under Xvfb against yui-sim --chaos, typed turns: the
// simulator kills the socket mid-turn at random points, sends garbage,
// oversize and dribbled frames; the test restarts the simulator, and once
// restarts it with another key, which yui refuses to retry (4401) until
// the key is changed in the settings window. Every turn ends as
// docs/protocol/push-transport.md says for what happened to it, reconnects follow the
// schedule, the settings and the delegation history are intact, no panic,
// and goroutines and open files do not grow. Short by default (10 kills);
// YUI_SOAK=long (make soak) runs 100.
func TestChaosSoakPush(t *testing.T) {
	kills, restarts := 10, 1
	if soakLong() {
		kills, restarts = 100, 4
	}
	seed := uint64(20261201)
	if s := os.Getenv("YUI_SOAK_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	began := time.Now()
	d := harness.StartXvfb(t, 1280, 800)
	cs := &chaosSim{t: t, port: harness.FreePort(t), key: "k1", seed: seed}
	cs.start()
	cfg := t.TempDir()
	wrote := harness.WriteSoakSettings(t, cfg, map[string]any{"chat_api": "push", "chat_base_url": cs.url, "key": "k1"})
	a := harness.StartYuiIn(t, d, cfg, "", "--stats-every", "1s")
	lt := harness.NewLogTail(cfg)
	lt.Wait(t, 30*time.Second, "ws_ready", nil)

	// A key the backend refuses: one attempt, a 4401 close, no retry
	// until the key changes in the settings window.
	cs.stop()
	cs.key = "k2"
	lt.Wait(t, 20*time.Second, "ws_reconnect", map[string]string{"delay": "1s"})
	cs.start()
	lt.Wait(t, 30*time.Second, "ws_close", map[string]string{"code": "4401"})
	lt.Wait(t, 20*time.Second, "window_open", map[string]string{"window": "settings"})
	x, y := settingsWindow(t, d)
	harness.Click(t, d, x+700, y+454) // the Preset tab's key field
	d.Run(t, "xdotool", "key", "ctrl+a")
	d.Run(t, "xdotool", "type", "--delay", "40", "k2")
	harness.Click(t, d, x+1060, y+697) // Save
	if !harness.WaitForOr(20*time.Second, func() bool { return lt.Count("preset_reconnect", nil) > 0 }) {
		d.Screenshot(t, "key-change")
		t.Fatal("the key typed in the settings window did not reconnect the preset")
	}
	// checkReconnects, below, holds that nothing was retried between the
	// 4401 close and this key change.
	harness.WaitFor(t, 20*time.Second, "ready with the new key", func() bool { return lt.Count("ws_ready", nil) >= 2 })
	_ = d.Command("xdotool", "search", "--name", "^Yui settings$", "windowunmap", "--sync").Run()
	keyChanges := 1

	// Typed turns until the simulator has killed enough sockets.
	a.OpenComposer()
	ty := &typist{t: t, a: a, log: lt}
	type outcome struct {
		id, how string
	}
	var turns []outcome
	var before harness.Stats
	restartAt := map[int]bool{}
	for i := 1; i <= restarts; i++ {
		restartAt[i*kills/(restarts+1)] = true
	}
	readyBefore := lt.Count("ws_ready", nil)
	for n := 1; cs.kills() < kills; n++ {
		if n > 40*kills {
			t.Fatalf("%d turns and only %d kills", n, cs.kills())
		}
		id := ty.turn(fmt.Sprintf("chaos turn %d", n))
		how := ""
		harness.WaitFor(t, 30*time.Second, "the end of turn "+id, func() bool {
			for _, m := range []string{"push.turn_end", "network_drop", "network_stall"} {
				if _, ok := lt.Find(0, m, map[string]string{"turn_id": id}); ok {
					how = m
					return true
				}
			}
			return false
		})
		turns = append(turns, outcome{id, how})
		ty.waitUnlocked(n, 20*time.Second)
		if how == "network_drop" {
			readyBefore++
			harness.WaitFor(t, 30*time.Second, "the reconnect after a kill", func() bool { return lt.Count("ws_ready", nil) >= readyBefore })
		}
		if n == 3 {
			before = lt.SettledStats(t)
		}
		if k := cs.kills(); restartAt[k] && how == "network_drop" {
			delete(restartAt, k)
			// The simulator goes away for three attempts: 1 s, 2 s, 4 s.
			from := len(lt.All())
			cs.stop()
			for _, delay := range []string{"1s", "2s", "4s"} {
				harness.WaitFor(t, 30*time.Second, "ws_reconnect "+delay, func() bool {
					_, ok := lt.Find(from, "ws_reconnect", map[string]string{"delay": delay})
					return ok
				})
			}
			cs.start()
			readyBefore++
			harness.WaitFor(t, 30*time.Second, "ready after the restart", func() bool { return lt.Count("ws_ready", nil) >= readyBefore })
			a.OpenComposer()
		}
	}
	after := lt.SettledStats(t)
	recs := lt.All()
	d.Screenshot(t, "after-chaos")
	harness.KeepLogs(t, cfg)

	// What the simulator did to each turn, and how the turn ended.
	did := cs.turns()
	count := map[string]int{}
	points := map[string]int{}
	for _, o := range turns {
		tr, ok := did[o.id]
		if !ok {
			t.Errorf("turn %s: the simulator logged no action", o.id)
			continue
		}
		count[tr.action]++
		wantHow := "push.turn_end"
		if tr.action == "kill" {
			wantHow = "network_drop"
			points[tr.point]++
			stage := "push_turn_end" // the speech frame was the first render
			if tr.point == "before_answer" {
				stage = "push_wait"
				if harness.CountRecords(recs, "speech", map[string]string{"turn_id": o.id, "kind": "failure"}) == 0 {
					t.Errorf("turn %s: killed before any render, no failure line", o.id)
				}
			}
			if harness.CountRecords(recs, "network_drop", map[string]string{"turn_id": o.id, "stage": stage}) != 1 {
				t.Errorf("turn %s: killed at %s, want one network_drop with stage %s", o.id, tr.point, stage)
			}
		}
		if o.how != wantHow {
			t.Errorf("turn %s (%s %s) ended with %s, want %s", o.id, tr.action, tr.point, o.how, wantHow)
		}
	}
	if n := harness.CountRecords(recs, "frame_oversize", map[string]string{"direction": "in"}); n < count["oversize"] {
		t.Errorf("%d frame_oversize records for %d oversize frames", n, count["oversize"])
	}
	if n := harness.CountRecords(recs, "frame_malformed", nil); count["garbage"] > 0 && n < count["garbage"]*10 {
		t.Errorf("%d frame_malformed records for %d turns of garbage (12 frames each)", n, count["garbage"])
	}
	ended := 0
	for _, o := range turns {
		if o.how != "" {
			ended++
		}
	}
	// Once per turn: the test's turns and those Yui started on her own
	// (the first activity of the day, docs/product.md §11, which the
	// test's own typing is).
	life := harness.CountRecords(recs, "life_turn", nil)
	if unlocked := harness.CountRecords(recs, "pet_composer_unlocked", nil); unlocked != len(turns)+life {
		t.Errorf("the composer unlocked %d times for %d turns and %d of Yui's own", unlocked, len(turns), life)
	}
	checked, delays := checkReconnects(t, recs)
	harness.CheckNoPanic(t, recs, a.Proc.Output())
	checkGrowth(t, before, after)

	// The settings are as written but for the new key; the delegation
	// history (in the preset's state file) holds every item the simulator
	// reported.
	checkSettingsKept(t, cfg, wrote, map[string]any{"key": "k2"})
	var want []string
	for id, tr := range did {
		_ = id
		if tr.action != "kill" {
			want = append(want, fmt.Sprintf("d-%d-%d", tr.seed, tr.seq))
		}
	}
	items, _ := harness.ReadState(t, cfg, "p-soak0001")["delegation_history"].([]any)
	var got []string
	for _, it := range items {
		m, _ := it.(map[string]any)
		got = append(got, fmt.Sprint(m["id"]))
	}
	sort.Strings(want)
	sort.Strings(got)
	if len(want) > 200 {
		t.Logf("%d items reported; the history keeps 200", len(want))
		if len(got) != 200 {
			t.Errorf("delegation history holds %d items, want 200", len(got))
		}
	} else if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("delegation history %v\nwant the %d items reported %v", got, len(want), want)
	}
	for _, it := range items {
		m, _ := it.(map[string]any)
		if m["state"] != "done" || m["status"] != "ok" || !strings.HasPrefix(fmt.Sprint(m["summary"]), "answered ") {
			t.Errorf("delegation history item %v is not as reported", m)
			break
		}
	}

	var pts []string
	for _, p := range []string{"before_answer", "after_speech", "after_render", "mid_frame"} {
		pts = append(pts, fmt.Sprintf("%s %d", p, points[p]))
	}
	soakReport(t, "soak push (seed %d): %d turns: %d kills (%s), %d garbage, %d oversize, %d slow, %d answered",
		seed, len(turns), count["kill"], strings.Join(pts, ", "), count["garbage"], count["oversize"], count["slow"], count["answer"])
	soakReport(t, "soak push: %d simulator restarts, %d key changes after 4401, %d reconnect delays on schedule %v, delegation history %d items",
		len(cs.runs)-2, keyChanges, checked, delays, len(got))
	soakReport(t, "soak push: turns ended %d/%d, goroutines %s, fds %s, rss %s→%s, in %s",
		ended, len(turns), harness.Growth(before.Goroutines, after.Goroutines), harness.Growth(before.Fds, after.Fds),
		harness.Mib(before.Rss), harness.Mib(after.Rss), time.Since(began).Round(time.Second))
}
