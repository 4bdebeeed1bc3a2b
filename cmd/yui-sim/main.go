// Command yui-sim is a simulated push backend for trying Yui without a real
// agent: it listens on a loopback address and plays a script on every
// connection (docs/protocol/push-transport.md). `yui-sim check` is the other side: it
// plays a client against a running push backend and reports which backend
// rules it keeps (package yui/transport/pushcheck).
//
// Usage:
//
//	yui-sim [--addr 127.0.0.1:8646] [--key K] [--script demo|echo|mint:N|FILE] [--chaos SEED] [--max-turn-bytes N] [--break NAME]
//	yui-sim check --url ws://HOST:PORT/ws [--key K] [--chat-id ID] [--json] [--only RULE,...]
//
// Point a preset with chat_api "push" at chat_base_url http://<addr>. The
// key may also come from the YUI_SIM_KEY environment variable; without one
// any key is accepted. --chaos SEED answers every turn like echo, but,
// reproducibly from the seed, drops the socket mid-turn or sends garbage,
// oversize or dribbled frames first, and logs what it did to each turn
// (sim_chaos records; package yui/transport/pushsim, Chaos). mint:N
// starts N silent turns of its own on each connection, for benchmarks.
// The scenario file format is documented in package
// yui/transport/pushsim (ParseScenario). Logs go to stderr; SIGINT or
// SIGTERM stops it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"yui/transport/pushsim"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "check" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := runCheck(ctx, os.Args[2:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "yui-sim:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("yui-sim", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: yui-sim [flags]          run the simulated push backend")
		fmt.Fprintln(fs.Output(), "       yui-sim check [flags]    check a running push backend (yui-sim check --help)")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	addr := fs.String("addr", pushsim.DefaultSimAddr, "loopback `address` to listen on")
	key := fs.String("key", "", "chat API `key` the client must send (default $YUI_SIM_KEY; empty accepts any)")
	script := fs.String("script", "demo", "script: demo, echo, mint:N, or a scenario `file`")
	chaosSeed := fs.Uint64("chaos", 0, "answer like echo but, reproducibly from this `seed`, kill sockets mid-turn and send garbage, oversize and dribbled frames (0: off)")
	maxTurn := fs.Int("max-turn-bytes", 0, "max_turn_bytes stated in ready (0: none, the client sends no images)")
	record := fs.String("record", "", "append every frame clients send to `file`, one JSON object a line (hello keys redacted)")
	brk := fs.String("break", "", "break one backend rule on purpose, to try `yui-sim check` on it: "+breakNames())
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := checkLoopback(*addr); err != nil {
		return err
	}
	if *maxTurn < 0 {
		return errors.New("--max-turn-bytes must not be negative")
	}
	k := *key
	if k == "" {
		k = os.Getenv("YUI_SIM_KEY")
	}
	b, err := parseBreak(*brk)
	if err != nil {
		return err
	}
	s, err := pushsim.NamedScript(*script)
	if err != nil {
		return err
	}
	if *chaosSeed != 0 {
		s = pushsim.Chaos(pushsim.DefaultChaos(*chaosSeed))
	}
	if b != pushsim.BreakNone && (*script == "demo" || *script == "") {
		o := pushsim.DefaultDemo()
		o.Break = b
		s = pushsim.Demo(o)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var onFrame func(pushsim.Frame)
	if *record != "" {
		f, err := os.OpenFile(*record, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("open record file: %w", err)
		}
		defer f.Close()
		onFrame = recorder(f)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := pushsim.StartSim(ctx, pushsim.SimOptions{
		Addr: *addr, Key: k, Script: s, MaxTurnBytes: *maxTurn, Logger: log, OnFrame: onFrame, Break: b,
	})
	if err != nil {
		return err
	}
	log.Info("yui-sim ready", "chat_base_url", srv.URL, "script", *script, "chaos", *chaosSeed, "key_required", k != "", "break", string(b))
	<-ctx.Done()
	log.Info("yui-sim stopping")
	return srv.Close()
}

// parseBreak reads a --break value: "" or one of pushsim.Breakages.
func parseBreak(name string) (pushsim.Breakage, error) {
	if name == "" {
		return pushsim.BreakNone, nil
	}
	for _, b := range pushsim.Breakages() {
		if string(b) == name {
			return b, nil
		}
	}
	return "", fmt.Errorf("--break %q: want one of %s", name, breakNames())
}

func breakNames() string {
	names := make([]string, 0, len(pushsim.Breakages()))
	for _, b := range pushsim.Breakages() {
		names = append(names, string(b))
	}
	return strings.Join(names, ", ")
}

// checkLoopback refuses addresses other machines could reach: the
// simulator accepts any key by default and is for local use only.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--addr %q: only loopback addresses are allowed", addr)
	}
	return nil
}

// recorder writes each frame as one JSON line. A hello's key is replaced,
// so a record file can be shared.
func recorder(w io.Writer) func(pushsim.Frame) {
	var mu sync.Mutex
	return func(f pushsim.Frame) {
		raw := f.Raw
		if f.Type == "hello" {
			var m map[string]json.RawMessage
			if json.Unmarshal(raw, &m) == nil {
				if _, ok := m["key"]; ok {
					m["key"] = json.RawMessage(`"[redacted]"`)
				}
				if b, err := json.Marshal(m); err == nil {
					raw = b
				}
			}
		}
		if !json.Valid(raw) {
			raw, _ = json.Marshal(map[string]string{"type": f.Type, "unparsed": string(raw)})
		}
		mu.Lock()
		defer mu.Unlock()
		w.Write(append(bytes.TrimSpace(raw), '\n'))
	}
}
