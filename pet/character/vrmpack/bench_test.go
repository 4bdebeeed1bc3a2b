package vrmpack

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"yui/pet/character/vrm/vrmtest"
)

// BenchmarkImport5k imports the generated avatar of about 5,000 triangles
// with 256² textures at the pack's real size (issue 52: within 10 s on a
// 2-core machine).
func BenchmarkImport5k(b *testing.B) {
	benchImport(b, vrmtest.Options{Triangles: 5000})
}

// BenchmarkImport100k4096 imports a model of about 100,000 triangles with
// 4096² textures (issue 52: within 60 s, peak memory under 1 GB).
func BenchmarkImport100k4096(b *testing.B) {
	benchImport(b, vrmtest.Options{Triangles: 100_000, TextureSize: 4096})
}

// benchImport reports each import's seconds (s/import) and the most
// memory the Go runtime held meanwhile (peak-MiB: heap, stacks and
// everything else it mapped), sampled every 10 ms.
func benchImport(b *testing.B, o vrmtest.Options) {
	dir := b.TempDir()
	file := filepath.Join(dir, "model.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(o), 0o600); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.ResetTimer()
	var total time.Duration
	var peak uint64
	for b.Loop() {
		stop := sampleMemory(&peak)
		start := time.Now()
		_, err := Import(context.Background(), Options{File: file, Dir: filepath.Join(dir, "characters"), ID: "bench"})
		total += time.Since(start)
		stop()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(filepath.Join(dir, "characters"))
		runtime.GC()
		b.StartTimer()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/import")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}

// sampleMemory keeps the largest runtime memory total in peak until stop.
func sampleMemory(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	read := func() {
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > *peak {
			*peak = v
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() { close(done); wg.Wait(); read() }
}
