// Package pushcheck plays a Yui client against a running push backend and
// reports which backend rules of docs/protocol/push-transport.md (and the wire rules of
// docs/protocol/client-context.md and docs/protocol/client-tools.md) the backend keeps. It is what
// `yui-sim check` runs.
//
// Run opens a few short sessions (probes), each a WebSocket connection that
// says hello and sends turns, and records every frame the backend sends.
// The rules (rules.go, one table) then read those records: each gives
// PASS, FAIL with what it saw, or SKIP when the backend declined an
// optional part or did not do what the rule needs within its wait.
package pushcheck

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/clientctx"
)

// Status is a rule's verdict.
type Status string

// The verdicts.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP"
)

// Config says how to reach the backend and how long to wait.
type Config struct {
	// URL is the backend's WebSocket URL, ws://HOST:PORT/ws (or wss://).
	URL string
	// Key is the chat API key; "" tells the checker the backend needs none
	// (the wrong-key rule is then skipped).
	Key string
	// ChatID is the chat_id every session says; "" mints one.
	ChatID string
	// AllowRemote lets URL name a public address. By default only
	// loopback and private addresses are checked.
	AllowRemote bool
	// Only limits the run to these rule ids; empty runs every rule.
	Only []string

	// Text is the user text of ordinary turns.
	Text string
	// FailText, when set, is sent as one more turn in the sessions that
	// check failures, for a backend that fails a turn on demand.
	FailText string
	// ToolText is the turn text of the tool wait probe: it should make the
	// backend call a declared tool.
	ToolText string
	// Turns is how many ordinary turns the main sessions send.
	Turns int

	// ReadyWait bounds the wait for ready (and for a close on a wrong key).
	ReadyWait time.Duration
	// TurnWait bounds the wait for the next frame of a running turn.
	TurnWait time.Duration
	// Grace is how long frames already on the wire may still arrive after
	// a stop, and how long the checker lingers for late frames.
	Grace time.Duration
	// AnswerDelay is how long the checker takes to answer a tool_call, so
	// that a call sent without waiting for the previous result shows.
	AnswerDelay time.Duration
	// ToolWaits overrides the backend adapter's tool_result waits of the
	// limits table, per tool name.
	ToolWaits map[string]time.Duration
	// ToolWaitTolerance is how much earlier than its wait a backend may
	// move on from an unanswered call.
	ToolWaitTolerance time.Duration
	// MaxProbeBytes caps the turn frame the size probe sends when ready
	// states a larger max_turn_bytes.
	MaxProbeBytes int

	// Progress, when set, hears one line as each probe starts.
	Progress func(line string)
}

// Defaults of Config.
const (
	DefaultText              = "Hello! This is a protocol check. Please answer in one short sentence."
	DefaultToolText          = "Please call the rate_relation tool with delta 1, then answer in one short sentence."
	DefaultTurns             = 4
	DefaultReadyWait         = 10 * time.Second  // hello reply wait
	DefaultTurnWait          = 240 * time.Second // frame wait, per turn
	DefaultGrace             = time.Second
	DefaultAnswerDelay       = 300 * time.Millisecond
	DefaultToolWaitTolerance = time.Second
	DefaultMaxProbeBytes     = 16 << 20
)

// TextFrameLimit is the text frame size of the limits table.
const TextFrameLimit = 256 << 10

// Result is one rule's verdict.
type Result struct {
	Rule   string `json:"rule"`
	Status Status `json:"status"`
	// Detail says what the checker saw; for a SKIP, which optional part the
	// backend declined or how to make it happen.
	Detail string `json:"detail"`
	// Doc and Spec name the spec sentence the rule checks.
	Doc  string `json:"doc"`
	Spec string `json:"spec"`
}

// Report is the outcome of a run.
type Report struct {
	URL     string   `json:"url"`
	Results []Result `json:"results"`
}

// Failed reports whether any rule failed.
func (r Report) Failed() bool {
	for _, res := range r.Results {
		if res.Status == Fail {
			return true
		}
	}
	return false
}

// Counts returns how many rules passed, failed and were skipped.
func (r Report) Counts() (pass, fail, skip int) {
	for _, res := range r.Results {
		switch res.Status {
		case Pass:
			pass++
		case Fail:
			fail++
		default:
			skip++
		}
	}
	return
}

// withDefaults fills unset fields.
func (c Config) withDefaults() Config {
	if c.Text == "" {
		c.Text = DefaultText
	}
	if c.ToolText == "" {
		c.ToolText = DefaultToolText
	}
	if c.Turns <= 0 {
		c.Turns = DefaultTurns
	}
	if c.ReadyWait <= 0 {
		c.ReadyWait = DefaultReadyWait
	}
	if c.TurnWait <= 0 {
		c.TurnWait = DefaultTurnWait
	}
	if c.Grace < 0 {
		c.Grace = 0
	}
	if c.AnswerDelay < 0 {
		c.AnswerDelay = 0
	}
	if c.ToolWaitTolerance <= 0 {
		c.ToolWaitTolerance = DefaultToolWaitTolerance
	}
	if c.MaxProbeBytes <= 0 {
		c.MaxProbeBytes = DefaultMaxProbeBytes
	}
	if c.ChatID == "" {
		c.ChatID = "yui-check-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 16)
	}
	return c
}

// RuleIDs lists every rule id, in report order.
func RuleIDs() []string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	return ids
}

// Run checks the backend at cfg.URL and returns one result per selected
// rule. It returns an error only for a configuration it cannot run
// (a bad URL, a refused address, an unknown rule id); a backend that cannot
// be reached fails the rules that needed it.
func Run(ctx context.Context, cfg Config) (Report, error) {
	cfg = cfg.withDefaults()
	if err := checkURL(ctx, cfg.URL, cfg.AllowRemote); err != nil {
		return Report{}, err
	}
	selected, err := selectRules(cfg.Only)
	if err != nil {
		return Report{}, err
	}
	need := map[probeID]bool{}
	for _, r := range selected {
		for _, p := range r.Needs {
			need[p] = true
		}
	}
	c := &checker{cfg: &cfg, ev: &evidence{cfg: &cfg, probes: map[probeID]*probeResult{}}}
	c.nextID = time.Now().UnixMilli()
	for _, p := range probeOrder {
		if !need[p.id] {
			continue
		}
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf("probe %s: %s", p.id, p.what))
		}
		res := p.run(c, ctx)
		c.ev.probes[p.id] = res
	}
	rep := Report{URL: cfg.URL}
	for _, r := range selected {
		st, detail := r.eval(c.ev)
		rep.Results = append(rep.Results, Result{Rule: r.ID, Status: st, Detail: detail, Doc: r.Doc, Spec: r.Spec})
	}
	return rep, nil
}

func selectRules(only []string) ([]*rule, error) {
	if len(only) == 0 {
		return rules, nil
	}
	var out []*rule
	for _, r := range rules {
		if slices.Contains(only, r.ID) {
			out = append(out, r)
		}
	}
	for _, id := range only {
		if !slices.ContainsFunc(rules, func(r *rule) bool { return r.ID == id }) {
			return nil, fmt.Errorf("unknown rule %q (rules: %s)", id, strings.Join(RuleIDs(), ", "))
		}
	}
	return out, nil
}

// checkURL accepts ws:// and wss:// URLs whose host is a loopback or
// private address (every address a name resolves to), unless allowRemote.
func checkURL(ctx context.Context, raw string, allowRemote bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("--url %q: %w", raw, err)
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return fmt.Errorf("--url %q: want ws:// or wss://", raw)
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("--url %q: no host", raw)
	}
	if allowRemote {
		return nil
	}
	var ips []net.IP
	if ip := net.ParseIP(host); ip != nil {
		ips = []net.IP{ip}
	} else if host == "localhost" {
		return nil
	} else {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		addrs, err := net.DefaultResolver.LookupIPAddr(lctx, host)
		if err != nil {
			return fmt.Errorf("--url %q: %w", raw, err)
		}
		for _, a := range addrs {
			ips = append(ips, a.IP)
		}
	}
	for _, ip := range ips {
		if !ip.IsLoopback() && !ip.IsPrivate() {
			return fmt.Errorf("--url %q: %s is not a loopback or private address (pass --allow-remote to check it anyway)", raw, ip)
		}
	}
	return nil
}

// checker holds a run's state.
type checker struct {
	cfg *Config
	ev  *evidence

	mu     sync.Mutex
	nextID int64
}

// turnID mints a client turn id: the wall clock at the start of the run,
// counting up one per turn, as the client does.
func (c *checker) turnID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return strconv.FormatInt(c.nextID, 10)
}

// clientContext is the block a user-typed turn carries.
func clientContext() string {
	return clientctx.Build(time.Now(), time.Local, transport.Turn{Trigger: transport.TriggerUserMessage})
}

// errNoReady is a session that got no ready.
var errNoReady = errors.New("no ready")
