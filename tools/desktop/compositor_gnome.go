//go:build linux && !android

package desktop

import (
	"fmt"
	"log/slog"

	"github.com/godbus/dbus/v5"

	"yui/tools/desktop/gnome"
)

// The GNOME Shell source of the window facts: Yui's extension
// (tools/desktop/gnome/core.js) owns gnome.BusName on the session bus,
// answers GetAll and sends each change as an Event signal. The source
// reads a snapshot when the name gets an owner (at start, after the shell
// restarts or the extension is enabled) and applies the signals between.

type gnomeSource struct {
	conn  *dbus.Conn
	facts *factTable
	log   *slog.Logger
	done  chan struct{}
}

// startGnome connects to the session bus and listens; an extension that
// is not running yet is logged, not an error: it may come later.
func startGnome(t *factTable, log *slog.Logger) (*gnomeSource, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("GNOME Shell: the session bus: %w", err)
	}
	s := &gnomeSource{conn: conn, facts: t, log: log, done: make(chan struct{})}
	rules := [][]dbus.MatchOption{
		{dbus.WithMatchInterface(gnome.Interface), dbus.WithMatchObjectPath(gnome.ObjectPath), dbus.WithMatchMember("Event")},
		{dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchInterface("org.freedesktop.DBus"),
			dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, gnome.BusName)},
	}
	for _, r := range rules {
		if err := conn.AddMatchSignal(r...); err != nil {
			conn.Close()
			return nil, fmt.Errorf("GNOME Shell: listen for the window facts: %w", err)
		}
	}
	ch := make(chan *dbus.Signal, 64)
	conn.Signal(ch)
	go s.loop(ch)
	if err := s.refresh(); err != nil {
		log.Warn("desktop_gnome_extension_missing", "err", err.Error(),
			"hint", "Yui's GNOME Shell extension does not answer: native Wayland windows are not seen until it runs (yui desktop setup, then log in again)")
	}
	return s, nil
}

// refresh reads every window's facts.
func (s *gnomeSource) refresh() error {
	var all string
	if err := s.conn.Object(gnome.BusName, gnome.ObjectPath).Call(gnome.Interface+".GetAll", 0).Store(&all); err != nil {
		return fmt.Errorf("GNOME Shell extension %s: %w", gnome.UUID, err)
	}
	ev, err := parseFactEvent(all)
	if err != nil || ev.Kind != "all" {
		return fmt.Errorf("GNOME Shell extension %s: GetAll: %v", gnome.UUID, err)
	}
	s.facts.apply(ev)
	s.log.Info("desktop_gnome_facts", "windows", len(ev.Windows))
	return nil
}

// loop applies the signals until the connection closes (Close).
func (s *gnomeSource) loop(ch <-chan *dbus.Signal) {
	defer close(s.done)
	for sig := range ch {
		switch sig.Name {
		case gnome.Interface + ".Event":
			if len(sig.Body) != 1 {
				continue
			}
			text, _ := sig.Body[0].(string)
			ev, err := parseFactEvent(text)
			if err != nil {
				s.log.Warn("desktop_gnome_event_dropped", "err", err.Error())
				continue
			}
			logEvent(s.log, "desktop_gnome_event", ev)
			s.facts.apply(ev)
		case "org.freedesktop.DBus.NameOwnerChanged":
			if len(sig.Body) != 3 {
				continue
			}
			if owner, _ := sig.Body[2].(string); owner == "" {
				s.log.Info("desktop_gnome_extension_gone")
				s.facts.setDead()
			} else if err := s.refresh(); err != nil {
				s.log.Warn("desktop_gnome_refresh", "err", err.Error())
			}
		}
	}
}

// Close ends the connection and waits for the loop.
func (s *gnomeSource) Close() error {
	err := s.conn.Close()
	<-s.done
	return err
}
