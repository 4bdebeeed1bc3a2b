package settings

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Life is a preset's "life" object: the turns Yui starts on her own and
// what holds them back (docs/product.md §11).
type Life struct {
	// Talk caps the turns of the capped kinds in a sliding hour.
	Talk Talk `json:"talk"`
	// QuietHours is "HH:MM-HH:MM" local, or "": no capped kind starts inside it.
	QuietHours          string `json:"quiet_hours"`
	FirstActivity       bool   `json:"first_activity"`
	BackFromAwayMinutes int    `json:"back_from_away_minutes"`
	// WatchApps are words of application names or titles whose window
	// becoming active starts an app switch turn.
	WatchApps          []string `json:"watch_apps"`
	ScreenWatchMinutes int      `json:"screen_watch_minutes"`
	// PrivateTitles are words that, in the active window's title, stop
	// every screenshot.
	PrivateTitles []string   `json:"private_titles"`
	Schedules     []Schedule `json:"schedules"`
}

// Talk is how chatty Yui may be on her own.
type Talk string

const (
	TalkOff    Talk = "off"
	TalkRare   Talk = "rare"
	TalkNormal Talk = "normal"
	TalkChatty Talk = "chatty"
)

// Talks lists the talk values, least first.
var Talks = []Talk{TalkOff, TalkRare, TalkNormal, TalkChatty}

// PerHour is the talk cap: at most this many capped turns in 60 minutes.
func (t Talk) PerHour() int {
	switch t {
	case TalkRare:
		return 1
	case TalkNormal:
		return 2
	case TalkChatty:
		return 4
	}
	return 0
}

// Schedule is one time of the day Yui gets a turn with its note.
type Schedule struct {
	At   string `json:"at"`   // "HH:MM" local
	Days Days   `json:"days"` // daily, weekdays or weekends
	Note string `json:"note"`
}

// Days says on which days a schedule runs.
type Days string

const (
	DaysDaily    Days = "daily"
	DaysWeekdays Days = "weekdays"
	DaysWeekends Days = "weekends"
)

// On reports whether a schedule of these days runs on weekday d.
func (d Days) On(w time.Weekday) bool {
	weekend := w == time.Saturday || w == time.Sunday
	switch d {
	case DaysDaily:
		return true
	case DaysWeekdays:
		return !weekend
	case DaysWeekends:
		return weekend
	}
	return false
}

// Limits of the life fields (docs/product.md §11).
const (
	MaxBackFromAwayMinutes = 720
	MinScreenWatchMinutes  = 5
	MaxScreenWatchMinutes  = 240
	MaxScheduleNote        = 200
	MaxLifeWords           = 50  // watch_apps, private_titles
	MaxLifeWord            = 100 // characters of one word
	MaxSchedules           = 50
)

// DefaultPrivateTitles are the private_titles of a new preset.
var DefaultPrivateTitles = []string{"password", "1password", "keepass", "bitwarden", "incognito", "inprivate", "private browsing"}

// DefaultLife is the life object of a new preset, as docs/product.md §11 shows it
// (its schedules example is not a default: the list is empty).
func DefaultLife() Life {
	return Life{
		Talk:                TalkNormal,
		QuietHours:          "23:00-07:00",
		FirstActivity:       true,
		BackFromAwayMinutes: 30,
		WatchApps:           []string{},
		PrivateTitles:       slices.Clone(DefaultPrivateTitles),
		Schedules:           []Schedule{},
	}
}

// UnmarshalJSON reads a life object over the defaults, so that a file
// naming only some fields keeps the others.
func (l *Life) UnmarshalJSON(data []byte) error {
	type plain Life
	v := plain(DefaultLife())
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("life: %w", err)
	}
	*l = Life(v)
	return nil
}

// repaired is l, or the defaults when the file had no life object (a
// file written before life existed decodes it as the zero value).
func (l Life) repaired() Life {
	if l.Talk == "" && l.QuietHours == "" && l.WatchApps == nil && l.PrivateTitles == nil && l.Schedules == nil &&
		!l.FirstActivity && l.BackFromAwayMinutes == 0 && l.ScreenWatchMinutes == 0 {
		return DefaultLife()
	}
	return l
}

func (l Life) clone() Life {
	c := l
	c.WatchApps = slices.Clone(l.WatchApps)
	c.PrivateTitles = slices.Clone(l.PrivateTitles)
	c.Schedules = slices.Clone(l.Schedules)
	return c
}

// Validate reports the life object's invalid fields, named "life.<field>"
// ("life.schedules.2.at" for one schedule's), for preset id.
func (l Life) Validate(id string) []FieldError {
	var errs []FieldError
	bad := func(field string, why *Invalid) { errs = append(errs, fieldErr(id, "life."+field, why)) }
	if !slices.Contains(Talks, l.Talk) {
		bad("talk", oneOf(Talks...))
	}
	if _, _, err := ParseQuietHours(l.QuietHours); err != nil {
		bad("quiet_hours", asInvalid(err))
	}
	if m := l.BackFromAwayMinutes; m != 0 && (m < 1 || m > MaxBackFromAwayMinutes) {
		bad("back_from_away_minutes", invalid(CodeZeroOrBetween, "Min", 1, "Max", MaxBackFromAwayMinutes))
	}
	if m := l.ScreenWatchMinutes; m != 0 && (m < MinScreenWatchMinutes || m > MaxScreenWatchMinutes) {
		bad("screen_watch_minutes", invalid(CodeZeroOrBetween, "Min", MinScreenWatchMinutes, "Max", MaxScreenWatchMinutes))
	}
	if why := checkWords(l.WatchApps); why != nil {
		bad("watch_apps", why)
	}
	if why := checkWords(l.PrivateTitles); why != nil {
		bad("private_titles", why)
	}
	if len(l.Schedules) > MaxSchedules {
		bad("schedules", invalid(CodeTooMany, "Max", MaxSchedules))
	}
	for i, s := range l.Schedules {
		for _, fe := range s.Validate() {
			bad(fmt.Sprintf("schedules.%d.%s", i, fe.Field), &Invalid{Code: fe.Code, Args: fe.Args})
		}
	}
	return errs
}

// Validate reports the schedule's invalid fields ("at", "days", "note").
func (s Schedule) Validate() []FieldError {
	var errs []FieldError
	if _, err := ParseClock(s.At); err != nil {
		errs = append(errs, fieldErr("", "at", asInvalid(err)))
	}
	if !slices.Contains([]Days{DaysDaily, DaysWeekdays, DaysWeekends}, s.Days) {
		errs = append(errs, fieldErr("", "days", oneOf(DaysDaily, DaysWeekdays, DaysWeekends)))
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(s.Note)); n < 1 || utf8.RuneCountInString(s.Note) > MaxScheduleNote {
		errs = append(errs, fieldErr("", "note", invalid(CodeNoteLength, "Max", MaxScheduleNote)))
	}
	return errs
}

// checkWords is why a word list is refused, or nil.
func checkWords(words []string) *Invalid {
	if len(words) > MaxLifeWords {
		return invalid(CodeTooManyWords, "Max", MaxLifeWords)
	}
	for _, w := range words {
		if strings.TrimSpace(w) == "" {
			return invalid(CodeEmptyWord)
		}
		if utf8.RuneCountInString(w) > MaxLifeWord {
			return invalid(CodeLongWord, "Max", MaxLifeWord)
		}
	}
	return nil
}

// ParseClock reads "HH:MM" (24-hour) as the time since midnight.
func ParseClock(s string) (time.Duration, error) {
	var h, m int
	if len(s) != 5 || s[2] != ':' {
		return 0, invalid(CodeClock, "Value", strconv.Quote(s))
	}
	if _, err := fmt.Sscanf(s, "%02d:%02d", &h, &m); err != nil || h > 23 || m > 59 || h < 0 || m < 0 {
		return 0, invalid(CodeClock, "Value", strconv.Quote(s))
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, nil
}

// ParseQuietHours reads "HH:MM-HH:MM" as its start and end since
// midnight; "" is no quiet hours (both -1). The end may be before the
// start: the hours run over midnight.
func ParseQuietHours(s string) (from, to time.Duration, err error) {
	if s == "" {
		return -1, -1, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, invalid(CodeQuietHours, "Value", strconv.Quote(s))
	}
	if from, err = ParseClock(a); err == nil {
		to, err = ParseClock(b)
	}
	if err != nil {
		return 0, 0, invalid(CodeQuietHours, "Value", strconv.Quote(s))
	}
	if from == to {
		return 0, 0, invalid(CodeSameStartEnd)
	}
	return from, to, nil
}
