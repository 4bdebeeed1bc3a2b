package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpListsEveryCommand: `yui --help` names each subcommand with its
// line, so a user finds them without the README.
func TestHelpListsEveryCommand(t *testing.T) {
	var b bytes.Buffer
	printCommands(&b)
	for _, c := range commands {
		if c.summary == "" || strings.Contains(c.summary, "\n") {
			t.Errorf("%s: the summary must be one line, got %q", c.name, c.summary)
		}
		if !strings.Contains(b.String(), "yui "+c.name) || !strings.Contains(b.String(), c.summary) {
			t.Errorf("the list lacks %s:\n%s", c.name, b.String())
		}
	}
}

// TestEachCommandHasHelp: every subcommand answers --help with its own
// usage on exit 0, and a stray argument with its usage on exit 2.
func TestEachCommandHasHelp(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := c.run([]string{"--help"}, &out, &errOut); code != 0 {
				t.Fatalf("--help: exit %d, want 0\n%s", code, errOut.String())
			}
			if !strings.Contains(errOut.String(), "usage: yui "+c.name) {
				t.Fatalf("--help printed no usage of its own:\n%s", errOut.String())
			}
		})
	}
	for _, name := range []string{"voices", "devices"} {
		c, _ := findCommand(name)
		var out, errOut bytes.Buffer
		if code := c.run([]string{"stray"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage: yui "+name) {
			t.Errorf("%s stray: exit %d, output %q", name, code, errOut.String())
		}
	}
}
