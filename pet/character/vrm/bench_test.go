package vrm

import (
	"bytes"
	"testing"

	"yui/pet/character/vrm/vrmtest"
)

func benchRead(b *testing.B, o vrmtest.Options) {
	data := vrmtest.Avatar(o)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead5k(b *testing.B) { benchRead(b, vrmtest.Options{Triangles: 5000}) }
func BenchmarkRead100k(b *testing.B) {
	benchRead(b, vrmtest.Options{Triangles: 100000, TextureSize: 4096})
}
