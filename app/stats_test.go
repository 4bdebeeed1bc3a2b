package app

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"runtime"
	"testing"
)

func TestWriteStats(t *testing.T) {
	var buf bytes.Buffer
	writeStats(slog.New(slog.NewJSONHandler(&buf, nil)))
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("record %q: %v", buf.String(), err)
	}
	if rec["msg"] != "runtime_stats" {
		t.Fatalf("msg = %v", rec["msg"])
	}
	for _, k := range []string{"goroutines", "heap_bytes", "sys_bytes"} {
		if v, ok := rec[k].(float64); !ok || v <= 0 {
			t.Errorf("%s = %v, want a positive number", k, rec[k])
		}
	}
	if runtime.GOOS == "linux" {
		for _, k := range []string{"rss_bytes", "fds"} {
			if v, ok := rec[k].(float64); !ok || v <= 0 {
				t.Errorf("%s = %v, want a positive number", k, rec[k])
			}
		}
	}
}
