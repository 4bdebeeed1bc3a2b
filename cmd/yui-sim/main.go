// Command yui-sim is a simulated push backend for trying Yui without a real
// agent: it listens on a loopback address and plays a script on every
// connection (push-transport.md).
//
// Usage:
//
//	yui-sim [--addr 127.0.0.1:8646] [--key K] [--script demo|echo|FILE] [--max-turn-bytes N]
//
// Point a preset with chat_api "push" at chat_base_url http://<addr>. The
// key may also come from the YUI_SIM_KEY environment variable; without one
// any key is accepted. The scenario file format is documented in package
// yui/transport/pushtest (ParseScenario). Logs go to stderr; SIGINT or
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
	"sync"
	"syscall"

	"yui/transport/pushtest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "yui-sim:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("yui-sim", flag.ContinueOnError)
	addr := fs.String("addr", pushtest.DefaultSimAddr, "loopback `address` to listen on")
	key := fs.String("key", "", "chat API `key` the client must send (default $YUI_SIM_KEY; empty accepts any)")
	script := fs.String("script", "demo", "script: demo, echo, or a scenario `file`")
	maxTurn := fs.Int("max-turn-bytes", 0, "max_turn_bytes stated in ready (0: none, the client sends no images)")
	record := fs.String("record", "", "append every frame clients send to `file`, one JSON object a line (hello keys redacted)")
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
	s, err := pushtest.NamedScript(*script)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var onFrame func(pushtest.Frame)
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
	srv, err := pushtest.StartSim(ctx, pushtest.SimOptions{
		Addr: *addr, Key: k, Script: s, MaxTurnBytes: *maxTurn, Logger: log, OnFrame: onFrame,
	})
	if err != nil {
		return err
	}
	log.Info("yui-sim ready", "chat_base_url", srv.URL, "script", *script, "key_required", k != "")
	<-ctx.Done()
	log.Info("yui-sim stopping")
	return srv.Close()
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
func recorder(w io.Writer) func(pushtest.Frame) {
	var mu sync.Mutex
	return func(f pushtest.Frame) {
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
