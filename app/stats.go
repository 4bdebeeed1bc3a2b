package app

import (
	"log/slog"
	"runtime"
	"time"
)

// logStats writes a runtime_stats record every interval until stop is
// closed: the goroutine count, the Go heap, and where the platform tells
// them the resident set and open file descriptors. Soak runs and the
// performance report read it to see that nothing grows (--stats-every).
func logStats(log *slog.Logger, every time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		writeStats(log)
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

func writeStats(log *slog.Logger) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	args := []any{"goroutines", runtime.NumGoroutine(), "heap_bytes", m.HeapAlloc, "sys_bytes", m.Sys}
	if rss, ok := residentBytes(); ok {
		args = append(args, "rss_bytes", rss)
	}
	if n, ok := openFiles(); ok {
		args = append(args, "fds", n)
	}
	log.Info("runtime_stats", args...)
}
