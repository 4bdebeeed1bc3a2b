package request

import (
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 9, 14, 6, 4, 14, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"0": 0, "7": 7 * time.Second, " 30 ": 30 * time.Second, "31": 31 * time.Second,
		"99999999999999999999": -1, "-1": -1, "1.5": -1, "": -1, "soon": -1,
		"Mon, 14 Sep 2026 06:04:34 GMT":   20 * time.Second,
		"Monday, 14-Sep-26 06:04:44 GMT":  30 * time.Second,
		"Mon Sep 14 06:05:14 2026":        time.Minute,
		"Mon, 14 Sep 2026 06:00:00 GMT":   0, // already past
		"Mon, 14 Sep 2026 06:04:34 +0200": -1,
	} {
		got, ok := retryAfter(v, now)
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", v, got, want)
		}
	}
	if d, ok := retryAfter("100000000", now); !ok || d < MaxRetryAfter {
		t.Errorf("a huge delay: %v %v", d, ok)
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"7", "Mon, 14 Sep 2026 06:04:34 GMT", "-3", "9223372036854775807", ""} {
		f.Add(s)
	}
	now := time.Date(2026, 9, 14, 6, 4, 14, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		if d, ok := retryAfter(v, now); ok && d < 0 {
			t.Fatalf("retryAfter(%q) = %v", v, d)
		}
	})
}
