package aec

import "testing"

// The near-end detector holds still for the echo alone, whatever the
// filter does (a moved echo leaves the microphone as loud as before), and
// sees the user talking over the far end within half a second.
func TestNearEndSeesTheUserNotTheEcho(t *testing.T) {
	const n = float64(Block)
	var s stats
	s.noise = 1e-7
	far := func(i int) float64 { // syllables: 160 ms loud, 80 ms soft
		if i%30 < 20 {
			return 1e-2 * n
		}
		return 1e-3 * n
	}
	echo := func(i int) float64 { return 0.16 * far(i-8) } // 64 ms later, -8 dB
	for i := range 1250 {                                  // 10 s of the pet alone
		if s.nearEnd(blockStats{sxx: far(i), sdd: echo(i)}) && i > gainLearn {
			t.Fatalf("block %d: the echo alone counted as the user", i)
		}
	}
	user := 0.005 * n // -23 dBFS: the user 6.6 dB over the echo
	first := -1
	for i := 1250; i < 1250+125; i++ {
		if s.nearEnd(blockStats{sxx: far(i), sdd: echo(i) + user}) && first < 0 {
			first = i - 1250
		}
	}
	if first < 0 || first > 62 {
		t.Fatalf("the user talking over the pet was seen after %d blocks, want within 62 (500 ms)", first)
	}
	t.Logf("the user seen after %d ms", first*Block*1000/Rate)
}
