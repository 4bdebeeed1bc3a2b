package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"yui/transport/pushcheck"
)

// Exit codes of yui-sim check.
const (
	exitPass  = 0 // no rule failed
	exitFail  = 1 // a rule failed
	exitUsage = 2 // the check could not run
)

// runCheck runs `yui-sim check` and returns its exit code.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("yui-sim check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: yui-sim check --url ws://HOST:PORT/ws [--key K] [--chat-id ID] [--json] [--only RULE,...]\n\n"+
			"Plays a Yui client against a running push backend and reports, rule by rule, which backend\n"+
			"rules of docs/protocol/push-transport.md, docs/protocol/client-context.md and docs/protocol/client-tools.md it keeps.\n"+
			"Exit code 0 when no rule FAILs, 1 when one does, 2 when the check cannot run.\n\nRules: %s\n\n",
			strings.Join(pushcheck.RuleIDs(), ", "))
		fs.PrintDefaults()
	}
	var cfg pushcheck.Config
	fs.StringVar(&cfg.URL, "url", "", "the backend's WebSocket `URL`, ws://HOST:PORT/ws")
	fs.StringVar(&cfg.Key, "key", "", "chat API `key` the backend requires (default $YUI_SIM_KEY; empty skips the wrong-key rule)")
	fs.StringVar(&cfg.ChatID, "chat-id", "", "chat_id every session says (default: a fresh yui-check-… id)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	only := fs.String("only", "", "check only these comma-separated `rules`")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a URL that is not a loopback or private address")
	fs.StringVar(&cfg.Text, "text", pushcheck.DefaultText, "user `text` of ordinary turns")
	fs.StringVar(&cfg.FailText, "fail-text", "", "one more turn `text` your backend fails on, to check error frames")
	fs.StringVar(&cfg.ToolText, "tool-text", pushcheck.DefaultToolText, "turn `text` that makes the backend call a declared tool")
	fs.IntVar(&cfg.Turns, "turns", pushcheck.DefaultTurns, "ordinary turns per session")
	fs.DurationVar(&cfg.ReadyWait, "ready-wait", pushcheck.DefaultReadyWait, "wait for ready, and for the close of a wrong key")
	fs.DurationVar(&cfg.TurnWait, "turn-wait", pushcheck.DefaultTurnWait, "wait for the next frame of a running turn")
	fs.DurationVar(&cfg.Grace, "grace", pushcheck.DefaultGrace, "time frames already on the wire may still arrive after a stop")
	fs.DurationVar(&cfg.AnswerDelay, "answer-delay", pushcheck.DefaultAnswerDelay, "time the checker takes to answer a tool_call")
	fs.DurationVar(&cfg.ToolWaitTolerance, "tool-wait-tolerance", pushcheck.DefaultToolWaitTolerance, "how much earlier than its limits-table wait a backend may give up on a tool_call")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPass
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "yui-sim check: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if cfg.URL == "" {
		fmt.Fprintln(stderr, "yui-sim check: --url is required (e.g. ws://127.0.0.1:8646/ws)")
		return exitUsage
	}
	if cfg.Key == "" {
		cfg.Key = os.Getenv("YUI_SIM_KEY")
	}
	if *only != "" {
		for _, id := range strings.Split(*only, ",") {
			if id = strings.TrimSpace(id); id != "" {
				cfg.Only = append(cfg.Only, id)
			}
		}
	}
	cfg.Progress = func(line string) { fmt.Fprintf(stderr, "%s %s\n", time.Now().Format("15:04:05"), line) }
	rep, err := pushcheck.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "yui-sim check:", err)
		return exitUsage
	}
	if *asJSON {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "yui-sim check:", err)
		return exitUsage
	}
	if rep.Failed() {
		return exitFail
	}
	return exitPass
}
