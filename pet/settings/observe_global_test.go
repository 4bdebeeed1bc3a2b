package settings

import (
	"testing"
	"time"
)

func TestGlobalChangesAreNotified(t *testing.T) {
	st, _, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan Change, 4)
	st.Subscribe(func(c Change) { got <- c })
	for _, edit := range []func(s *Settings){
		func(s *Settings) { s.StartAtLogin = true },
		func(s *Settings) { s.Speakers = "USB Headset" },
	} {
		if err := st.Update(func(s *Settings) error { edit(s); return nil }); err != nil {
			t.Fatal(err)
		}
		select {
		case c := <-got:
			if !c.Global {
				t.Fatalf("a global change not marked global: %+v", c)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a change of a global setting reached no subscriber")
		}
	}
}
