package settings

import (
	"crypto/rand"
	"errors"
	"strings"
	"testing"
)

func TestLanguageValidatedAtTheField(t *testing.T) {
	s, err := Default(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range append(ShippedLanguages(), LanguageSystem) {
		s.Language = l
		if err := s.Validate(); err != nil {
			t.Errorf("language %q: %v", l, err)
		}
	}
	s.Language = "fr"
	var ve *ValidationError
	if err := s.Validate(); !errors.As(err, &ve) {
		t.Fatalf("language fr: err = %v, want a ValidationError", err)
	}
	got := ve.For("")
	if len(got) != 1 || got[0].Field != "language" || got[0].Code != CodeOneOf || !strings.Contains(got[0].Reason(), `"zh-Hans"`) {
		t.Fatalf("fields = %+v, want one language error", got)
	}
}

func TestUnknownLanguageInTheFileIsRefusedNotFatal(t *testing.T) {
	s := defaultSettings()
	s.Language = "tlh"
	refused := s.refuseInvalid(&ValidationError{Fields: s.Language.validate()})
	if s.Language != LanguageSystem || len(refused) != 1 {
		t.Fatalf("language %q, refused %+v: want the system's and one refusal", s.Language, refused)
	}
}
