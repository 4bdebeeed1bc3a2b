package clientctx

import (
	"strings"
	"testing"
	"time"

	"yui/transport"
)

func TestLifeTriggers(t *testing.T) {
	long := strings.Repeat("a", 300)
	for _, c := range []struct {
		got  transport.Trigger
		want string
	}{
		{TriggerFirstActivity, "first activity today"},
		{TriggerBackFromAway(42), "back from away (42 min)"},
		{TriggerAppSwitch("Firefox"), `app switch to "Firefox"`},
		{TriggerAppSwitch("a\nb"), `app switch to "a\nb"`},
		{TriggerScreenWatch, "screen watch"},
		{TriggerSchedule("lunch"), `schedule "lunch"`},
		{TriggerReminder("tea", 0), `reminder "tea"`},
		{TriggerReminder("tea", 7), `reminder "tea" (7 min late)`},
		{TriggerEvent("build", "done"), `event from "build": "done"`},
		{TriggerEvent("cli", long), `event from "cli": "` + strings.Repeat("a", 199) + `…"`},
	} {
		if string(c.got) != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// The trigger line of a life turn carries no raw newline (the block's
// lines stay lines).
func TestLifeTriggerLine(t *testing.T) {
	block := Build(time.Date(2026, 9, 14, 12, 30, 0, 0, time.UTC), time.UTC, transport.Turn{Trigger: TriggerEvent("ci", "line1\nline2")})
	if !strings.Contains(block, "\ntrigger: event from \"ci\": \"line1\\nline2\"\n") {
		t.Fatalf("block:\n%s", block)
	}
}
