package applog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
)

// Redacted replaces a message or value that contains a secret.
const Redacted = "[redacted]"

// MinSecretLen is the shortest secret matched. Shorter "keys" would redact
// ordinary words in every line, and hide nothing worth hiding.
const MinSecretLen = 4

// Secrets is the set of strings that must never appear in a log line (the
// presets' keys). It is safe for concurrent use; the app calls Set after
// every settings change.
type Secrets struct {
	set atomic.Pointer[secretSet]
}

type secretSet struct {
	list  []string
	forms [][]byte // every form of every secret, for the scrubbing writer
}

// NewSecrets returns a set holding list.
func NewSecrets(list ...string) *Secrets {
	s := &Secrets{}
	s.Set(list)
	return s
}

// Set replaces the set. Empty strings and strings shorter than MinSecretLen
// are ignored.
func (s *Secrets) Set(list []string) {
	set := &secretSet{}
	for _, v := range list {
		if len(v) >= MinSecretLen && !slices.Contains(set.list, v) {
			set.list = append(set.list, v)
			set.forms = append(set.forms, secretForms(v)...)
		}
	}
	// Longest first, so that a key holding another key is replaced whole.
	slices.SortFunc(set.forms, func(a, b []byte) int { return len(b) - len(a) })
	s.set.Store(set)
}

func (s *Secrets) load() *secretSet {
	if s != nil {
		if p := s.set.Load(); p != nil {
			return p
		}
	}
	return &secretSet{}
}

// Contains reports whether str contains any secret.
func (s *Secrets) Contains(str string) bool {
	for _, k := range s.load().list {
		if strings.Contains(str, k) {
			return true
		}
	}
	return false
}

// redactHandler replaces every message and attribute value that contains a
// secret by Redacted, before the wrapped handler formats it.
type redactHandler struct {
	next    slog.Handler
	secrets *Secrets
}

// NewRedactHandler wraps next so that no message or attribute value
// containing one of secrets reaches it: such a message or value becomes
// Redacted. Values are checked as text: strings, errors, Stringers,
// LogValuers (resolved) and any other value as formatted by %+v. Groups
// are walked.
func NewRedactHandler(next slog.Handler, secrets *Secrets) slog.Handler {
	return &redactHandler{next: next, secrets: secrets}
}

func (h *redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *redactHandler) Handle(ctx context.Context, r slog.Record) error {
	msg := r.Message
	if h.secrets.Contains(msg) {
		msg = Redacted
	}
	out := slog.NewRecord(r.Time, r.Level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.redact(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = h.redact(a)
	}
	return &redactHandler{next: h.next.WithAttrs(red), secrets: h.secrets}
}

func (h *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{next: h.next.WithGroup(name), secrets: h.secrets}
}

// redact returns a with its value, or the values of its group members,
// replaced when they contain a secret.
func (h *redactHandler) redact(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		members := v.Group()
		red := make([]slog.Attr, len(members))
		for i, m := range members {
			red[i] = h.redact(m)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(red...)}
	case slog.KindString:
		if h.secrets.Contains(v.String()) {
			return slog.String(a.Key, Redacted)
		}
	case slog.KindAny:
		if h.secrets.Contains(anyText(v.Any())) {
			return slog.String(a.Key, Redacted)
		}
	}
	// Numbers, bools, times and durations cannot hold a key of
	// MinSecretLen letters; a key made of digits is still caught by the
	// scrubbing writer under the handler.
	return slog.Attr{Key: a.Key, Value: v}
}

// anyText is every text form a handler could print for v.
func anyText(v any) string {
	var b strings.Builder
	switch x := v.(type) {
	case error:
		b.WriteString(x.Error())
	case fmt.Stringer:
		b.WriteString(x.String())
	}
	fmt.Fprintf(&b, "\x00%+v\x00", v)
	if j, err := json.Marshal(v); err == nil {
		b.Write(j)
	}
	return b.String()
}

// scrubWriter is the last guard: it replaces any secret left in a
// formatted line (raw or JSON-escaped) by Redacted before the bytes reach
// the file. slog handlers write one record per Write call.
type scrubWriter struct {
	w       io.Writer
	secrets *Secrets
}

// NewScrubWriter wraps w so that no secret, raw or as JSON would escape it,
// is ever written to it.
func NewScrubWriter(w io.Writer, secrets *Secrets) io.Writer {
	return &scrubWriter{w: w, secrets: secrets}
}

func (s *scrubWriter) Write(p []byte) (int, error) {
	out := p
	for _, f := range s.secrets.load().forms {
		if bytes.Contains(out, f) {
			out = bytes.ReplaceAll(out, f, []byte(Redacted))
		}
	}
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// secretForms returns k as it may appear in a formatted line: raw,
// JSON-escaped with and without HTML escaping (slog's JSON handler escapes
// quotes and control characters but not <, > and &), and escaped as in a
// URL's query or path (an error naming a request URL that carries the key).
func secretForms(k string) [][]byte {
	forms := [][]byte{[]byte(k)}
	for _, e := range []string{url.QueryEscape(k), url.PathEscape(k)} {
		if !slices.ContainsFunc(forms, func(f []byte) bool { return string(f) == e }) {
			forms = append(forms, []byte(e))
		}
	}
	for _, html := range []bool{false, true} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(k) != nil {
			continue
		}
		e := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		e = e[1 : len(e)-1]
		if !slices.ContainsFunc(forms, func(f []byte) bool { return bytes.Equal(f, e) }) {
			forms = append(forms, e)
		}
	}
	return forms
}
