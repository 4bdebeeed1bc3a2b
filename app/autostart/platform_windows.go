//go:build windows

package autostart

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/windows/registry"
)

// runKey is the per-user Run key: its values start at login.
const runKey = `Software\Microsoft\Windows\CurrentVersion\Run`

// runValue is the Run key's value named Name.
type runValue struct{}

// Open returns this platform's entry: a value of the per-user Run key.
func Open() (Entry, error) { return runValue{}, nil }

func (runValue) Enable(exe string, args []string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	defer k.Close()
	cmd := []string{`"` + exe + `"`}
	for _, a := range args {
		cmd = append(cmd, `"`+strings.ReplaceAll(a, `"`, `\"`)+`"`)
	}
	if err := k.SetStringValue(Name, strings.Join(cmd, " ")); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func (runValue) Disable() error {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	defer k.Close()
	if err := k.DeleteValue(Name); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func (runValue) Enabled() (bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	defer k.Close()
	_, _, err = k.GetStringValue(Name)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
