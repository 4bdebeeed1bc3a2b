package cmdline_test

import (
	"slices"
	"testing"

	"yui/pet/cmdline"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		bad  bool
	}{
		{`whisper-cli -m ~/models/ggml-base.en.bin -nt -f`, []string{"whisper-cli", "-m", "~/models/ggml-base.en.bin", "-nt", "-f"}, false},
		{`  a  'b c'  "d \"e\" \x"  f\ g ''`, []string{"a", "b c", `d "e" \x`, "f g", ""}, false},
		{`pocketsphinx_continuous -logfn /dev/null -infile`, []string{"pocketsphinx_continuous", "-logfn", "/dev/null", "-infile"}, false},
		{`"C:\Program Files\stt.exe" --in`, []string{`C:\Program Files\stt.exe`, "--in"}, false},
		{`a 'b`, nil, true},
		{`a "b`, nil, true},
		{`a \`, nil, true},
		{``, nil, false},
	}
	for _, tt := range tests {
		got, err := cmdline.Split(tt.in)
		if (err != nil) != tt.bad || !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v", tt.in, got, err)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add(`a 'b c' "d\"e" f\ g`)
	f.Fuzz(func(t *testing.T, s string) { cmdline.Split(s) })
}
