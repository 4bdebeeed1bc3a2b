package app

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"yui/pet/settings"
)

// yui event (docs/product.md §11): another program on this computer hands
// the running Yui an event over the one-instance channel (instance.go):
// one line, "event <token> <JSON>", answered "ok" or "error <reason>".

// ErrNotRunning is SendEvent's error when no Yui runs on the config
// directory.
var ErrNotRunning = errors.New("no Yui is running with this config directory")

// eventWait bounds the whole exchange with the running Yui.
const eventWait = 3 * time.Second

// eventMessage is the JSON of an event line.
type eventMessage struct {
	Preset string `json:"preset,omitempty"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text"`
}

// SendEvent hands an event to the Yui running on configDir ("" is the
// OS config directory): its preset presetID ("" is the active one).
func SendEvent(configDir, presetID, source, text string) error {
	dir := configDir
	if dir == "" {
		d, err := settings.DefaultDir()
		if err != nil {
			return fmt.Errorf("app: %w", err)
		}
		dir = d
	}
	data, err := os.ReadFile(filepath.Join(dir, instanceName))
	if err != nil {
		return ErrNotRunning
	}
	var port int
	var token string
	if _, err := fmt.Sscanf(string(data), "%d %s", &port, &token); err != nil {
		return ErrNotRunning
	}
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return ErrNotRunning // the file of a Yui that is gone
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(eventWait))
	msg, err := json.Marshal(eventMessage{Preset: presetID, Source: source, Text: text})
	if err != nil {
		return fmt.Errorf("app: encoding the event: %w", err)
	}
	if _, err := fmt.Fprintf(c, "event %s %s\n", token, msg); err != nil {
		return fmt.Errorf("app: sending the event: %w", err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return fmt.Errorf("app: the running Yui did not answer: %w", err)
	}
	line = strings.TrimSpace(line)
	if reason, ok := strings.CutPrefix(line, "error "); ok {
		return errors.New(reason)
	}
	if line != "ok" {
		return fmt.Errorf("app: unexpected answer %q", line)
	}
	return nil
}

// answerEvent takes one event line's JSON and answers it.
func (in *instance) answerEvent(c net.Conn, payload string) {
	var m eventMessage
	err := json.Unmarshal([]byte(payload), &m)
	switch {
	case err != nil:
		err = errors.New("the event is not valid JSON")
	case in.onEvent == nil:
		err = errors.New("events are not taken yet")
	default:
		err = in.onEvent(m.Preset, m.Source, m.Text)
	}
	answer := "ok\n"
	if err != nil {
		answer = "error " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n"
	}
	_, _ = c.Write([]byte(answer))
}
