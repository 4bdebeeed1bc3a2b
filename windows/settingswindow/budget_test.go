package settingswindow

import (
	"testing"

	"yui/pet"
	"yui/pet/settings"
	"yui/transport"
)

func TestSettingsBudgetInUse(t *testing.T) {
	h := openSettings(t, nil, "")
	f := &h.sw.ed.f
	if want := budgetText(nil, 0); f.budget.Text != want {
		t.Fatalf("not running: %q, want %q", f.budget.Text, want)
	}
	if err := h.b.Settings.UpdatePreset(h.sw.selected, func(p *settings.Preset) error { p.ContextWindow = 4096; return nil }); err != nil {
		t.Fatal(err)
	}
	conn := h.b.Run(h.sw.selected)
	conn.Publish(pet.View{Pill: pet.Pill{Conn: "ready", ConnState: transport.StateReady},
		Usage: &transport.Usage{InputTokens: 3012, OutputTokens: 40, TotalTokens: 3052}})
	if want := "Budget in use: 3,012 / 4,096 tokens"; f.budget.Text != want {
		t.Fatalf("budget %q, want %q", f.budget.Text, want)
	}
	if got := budgetText(&transport.Usage{InputTokens: 12}, 0); got != "Budget in use: 12 tokens (context window unknown)" {
		t.Errorf("unknown window: %q", got)
	}
}
