package clientctx

import (
	"fmt"

	"yui/transport"
)

// The triggers of the turns Yui starts on her own (docs/protocol/client-context.md,
// "Turns Yui starts on her own"). Each has text ""; what it is about
// stands in the trigger line, its quoted values Go-quoted and cut like
// every other quoted value.
const (
	TriggerFirstActivity transport.Trigger = "first activity today"
	TriggerScreenWatch   transport.Trigger = "screen watch"
)

// TriggerBackFromAway is `back from away (<N> min)`, N the whole minutes away.
func TriggerBackFromAway(minutes int) transport.Trigger {
	return transport.Trigger(fmt.Sprintf("back from away (%d min)", minutes))
}

// TriggerAppSwitch is `app switch to "<app>"`.
func TriggerAppSwitch(app string) transport.Trigger {
	return transport.Trigger("app switch to " + Quote(app, MaxQuoted))
}

// TriggerSchedule is `schedule "<note>"`.
func TriggerSchedule(note string) transport.Trigger {
	return transport.Trigger("schedule " + Quote(note, MaxQuoted))
}

// TriggerReminder is `reminder "<text>"`, or with lateMinutes > 0
// `reminder "<text>" (<N> min late)`.
func TriggerReminder(text string, lateMinutes int) transport.Trigger {
	t := "reminder " + Quote(text, MaxQuoted)
	if lateMinutes > 0 {
		t += fmt.Sprintf(" (%d min late)", lateMinutes)
	}
	return transport.Trigger(t)
}

// TriggerEvent is `event from "<source>": "<text>"`.
func TriggerEvent(source, text string) transport.Trigger {
	return transport.Trigger("event from " + Quote(source, MaxQuoted) + ": " + Quote(text, MaxQuoted))
}
