package settings

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestHandsFreeSettings(t *testing.T) {
	var v Voice
	if err := json.Unmarshal([]byte(`{"mode":"wake_word","engine":"openai"}`), &v); err != nil {
		t.Fatal(err)
	}
	if !v.EchoCancelOn() || len(v.WakeWords) != 0 {
		t.Fatalf("defaults: echo cancel %v, words %q", v.EchoCancelOn(), v.WakeWords)
	}
	if err := json.Unmarshal([]byte(`{"echo_cancel":false,"wake_words":["Computer"]}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.EchoCancelOn() || v.WakeWords[0] != "Computer" {
		t.Fatalf("read back: %v %q", v.EchoCancelOn(), v.WakeWords)
	}
	v.SetEchoCancel(true)
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), "echo_cancel") {
		t.Fatalf("the default is written: %s", b)
	}
	p := defaultPreset()
	p.ID, p.ChatID, p.Name = "p-1", "yui-1", "x"
	p.Voice.Mode, p.Voice.BaseURL = "wake_word", "http://localhost:9000"
	p.Voice.WakeWords = []string{"yui", " ", strings.Repeat("a", 41)}
	var fields []string
	for _, f := range p.Validate() {
		fields = append(fields, f.Field+" "+f.Reason())
	}
	got := strings.Join(fields, "; ")
	if !strings.Contains(got, "voice.wake_words has an empty word") || !strings.Contains(got, "longer than 40") || strings.Contains(got, "voice.mode") {
		t.Fatalf("validation: %s", got)
	}
}
