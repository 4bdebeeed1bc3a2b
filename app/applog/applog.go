// Package applog sets up Yui's log (docs/product.md §8): log/slog JSON lines in
// one file per process, rotated by size, with old process logs pruned, an
// optional mirror to stderr, and a redacting layer that keeps every key
// out of every line.
package applog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Defaults of Options.
const (
	DefaultMaxSize       = 10 << 20 // bytes per file before rotation
	DefaultBackups       = 5        // rotated files kept per process
	DefaultKeepProcesses = 10       // process logs kept, this one included
)

// Dir returns the log directory: <configDir>/logs when the --config-dir
// flag gave configDir, else os.UserCacheDir()/yui/logs.
func Dir(configDir string) (string, error) {
	if configDir != "" {
		return filepath.Join(configDir, "logs"), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("applog: finding the cache directory: %w", err)
	}
	return filepath.Join(cache, "yui", "logs"), nil
}

// Options configure Open. Dir is required.
type Options struct {
	// Dir is the log directory, created with mode 0700 when missing.
	Dir string
	// Level is the minimum level; nil is info. Pass a *slog.LevelVar to
	// follow the log_level setting while running.
	Level slog.Leveler
	// Verbose, when not nil, receives a text copy of every record (stderr
	// under --verbose).
	Verbose io.Writer
	// Secrets are the strings no line may contain; nil redacts nothing.
	Secrets *Secrets
	// MaxSize is the size at which a file rotates (DefaultMaxSize when 0).
	MaxSize int64
	// Backups is how many rotated files are kept (DefaultBackups when 0).
	Backups int
	// KeepProcesses is how many process logs are kept, this process's
	// included (DefaultKeepProcesses when 0).
	KeepProcesses int
	// Now and PID name the file; zero values use the wall clock and os.Getpid.
	Now func() time.Time
	PID int
}

// Log is the process log.
type Log struct {
	// Logger writes to the file (and the verbose mirror).
	Logger *slog.Logger
	w      *RotatingWriter
}

// Open creates this process's log file, yui-<start time>-<pid>.log in
// opts.Dir, prunes the logs of older processes past opts.KeepProcesses,
// and returns the log. Pruning failures are logged, not returned.
func Open(opts Options) (*Log, error) {
	if opts.Dir == "" {
		return nil, errors.New("applog: no log directory")
	}
	if opts.MaxSize == 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.Backups == 0 {
		opts.Backups = DefaultBackups
	}
	if opts.KeepProcesses <= 0 {
		opts.KeepProcesses = DefaultKeepProcesses
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	pid := opts.PID
	if pid == 0 {
		pid = os.Getpid()
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("applog: creating %s: %w", opts.Dir, err)
	}
	name := FileName(now(), pid)
	w, err := NewRotatingWriter(filepath.Join(opts.Dir, name), opts.MaxSize, opts.Backups)
	if err != nil {
		return nil, err
	}
	hopts := &slog.HandlerOptions{Level: opts.Level}
	var h slog.Handler = slog.NewJSONHandler(NewScrubWriter(w, opts.Secrets), hopts)
	if opts.Verbose != nil {
		h = Fanout(h, slog.NewTextHandler(NewScrubWriter(opts.Verbose, opts.Secrets), hopts))
	}
	l := &Log{Logger: slog.New(NewRedactHandler(h, opts.Secrets)), w: w}
	if err := Prune(opts.Dir, name, opts.KeepProcesses); err != nil {
		l.Logger.Warn("log_prune_failed", "error", err)
	}
	return l, nil
}

// Path returns the path of the file being written.
func (l *Log) Path() string { return l.w.Path() }

// Close flushes and closes the file.
func (l *Log) Close() error {
	serr := l.w.Sync()
	return errors.Join(serr, l.w.Close())
}

// FileName returns the log file name of a process started at start:
// yui-<UTC time, sortable>-<pid>.log.
func FileName(start time.Time, pid int) string {
	return fmt.Sprintf("yui-%s-%d.log", start.UTC().Format("20060102T150405Z"), pid)
}

// Prune removes the files of all but the newest keep process logs in dir
// (rotated files go with their process log). The process log current is
// always kept. Process logs are ordered by the start time in their names.
func Prune(dir, current string, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("applog: pruning: %w", err)
	}
	groups := map[string][]string{} // process log name → its files
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasPrefix(n, "yui-") {
			continue
		}
		base, _, _ := strings.Cut(n, ".log")
		if !strings.HasSuffix(n, ".log") && !strings.Contains(n, ".log.") {
			continue
		}
		base += ".log"
		groups[base] = append(groups[base], n)
	}
	names := make([]string, 0, len(groups))
	for b := range groups {
		if b != current {
			names = append(names, b)
		}
	}
	slices.Sort(names)
	slices.Reverse(names) // newest first
	var errs []error
	for i, b := range names {
		if i < keep-1 {
			continue
		}
		for _, f := range groups[b] {
			if err := os.Remove(filepath.Join(dir, f)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("applog: pruning: %w", errors.Join(errs...))
	}
	return nil
}

// fanout sends each record to every handler that takes its level.
type fanout []slog.Handler

// Fanout returns a handler that passes every record to each of hs.
func Fanout(hs ...slog.Handler) slog.Handler { return fanout(slices.Clone(hs)) }

func (f fanout) Enabled(ctx context.Context, l slog.Level) bool {
	return slices.ContainsFunc(f, func(h slog.Handler) bool { return h.Enabled(ctx, l) })
}

func (f fanout) Handle(ctx context.Context, r slog.Record) error {
	var errs []error
	for _, h := range f {
		if h.Enabled(ctx, r.Level) {
			if err := h.Handle(ctx, r.Clone()); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func (f fanout) WithAttrs(as []slog.Attr) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithAttrs(as)
	}
	return out
}

func (f fanout) WithGroup(name string) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithGroup(name)
	}
	return out
}
