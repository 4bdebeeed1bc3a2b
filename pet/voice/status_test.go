package voice

import "testing"

// pet/lifeturn.go holds life turns back on these two pill texts.
func TestStatusTextsLifeReads(t *testing.T) {
	if StatusListening != "listening" || StatusTranscribing != "transcribing" {
		t.Fatal("pet/lifeturn.go's voice texts must follow these")
	}
}
