package settings

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Reminders are the pending reminders of a preset, set through the remind
// tool (docs/protocol/client-tools.md): learned state, kept in the preset's
// state file (0600, written atomically) so that they survive restarts.
type Reminders struct {
	List []Reminder `json:"reminders,omitempty"`
	// NextID is the id the next reminder gets; ids are never reused.
	NextID int `json:"next_reminder_id,omitempty"`
}

// Reminder is one pending reminder.
type Reminder struct {
	ID   int       `json:"id"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

func (r Reminders) clone() Reminders {
	return Reminders{List: slices.Clone(r.List), NextID: r.NextID}
}

func (r Reminders) equal(o Reminders) bool {
	return r.NextID == o.NextID && slices.EqualFunc(r.List, o.List, func(a, b Reminder) bool {
		return a.ID == b.ID && a.Text == b.Text && a.At.Equal(b.At)
	})
}

// ErrNoReminder is the error of a reminder id the preset does not hold.
var ErrNoReminder = errors.New("settings: no such reminder")

// ReminderStore returns the pending reminders of preset id (the
// tools/remind Book and the life scheduler's reminders).
func (s *Store) ReminderStore(presetID string) ReminderStore {
	return ReminderStore{s: s, id: presetID}
}

// ReminderStore reads and changes one preset's reminders. Changes are
// written within StateDelay, off the caller's goroutine.
type ReminderStore struct {
	s  *Store
	id string
}

// Reminders returns the pending reminders, soonest first.
func (r ReminderStore) Reminders() []Reminder {
	p, ok := r.s.Preset(r.id)
	if !ok {
		return nil
	}
	l := slices.Clone(p.Reminders.List)
	slices.SortStableFunc(l, func(a, b Reminder) int { return a.At.Compare(b.At) })
	return l
}

// AddReminder keeps a new reminder and returns it with its id.
func (r ReminderStore) AddReminder(text string, at time.Time) (Reminder, error) {
	var added Reminder
	err := r.s.UpdatePreset(r.id, func(p *Preset) error {
		p.Reminders.NextID = max(p.Reminders.NextID, 1)
		for _, x := range p.Reminders.List {
			p.Reminders.NextID = max(p.Reminders.NextID, x.ID+1)
		}
		added = Reminder{ID: p.Reminders.NextID, Text: text, At: at}
		p.Reminders.NextID++
		p.Reminders.List = append(p.Reminders.List, added)
		return nil
	})
	if err != nil {
		return Reminder{}, fmt.Errorf("settings: adding a reminder: %w", err)
	}
	return added, nil
}

// RemoveReminder drops reminder id (cancelled, fired or dropped late);
// an id the preset does not hold is ErrNoReminder.
func (r ReminderStore) RemoveReminder(id int) error {
	return r.s.UpdatePreset(r.id, func(p *Preset) error {
		i := slices.IndexFunc(p.Reminders.List, func(x Reminder) bool { return x.ID == id })
		if i < 0 {
			return ErrNoReminder
		}
		p.Reminders.List = slices.Delete(p.Reminders.List, i, i+1)
		return nil
	})
}
