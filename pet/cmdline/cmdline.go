// Package cmdline splits the command lines of the speech and voice
// settings' command engines (speech.command, voice.command) into a
// program and its arguments, quoted as a POSIX shell quotes; nothing runs
// through a shell. Its own package because both pet/speech and pet/voice
// split them, and neither imports the other.
package cmdline

import (
	"errors"
	"fmt"
	"strings"
)

// Split splits a command line into words the way a POSIX shell
// does for quoting: single quotes keep everything, double quotes keep all
// but backslash escapes of " \ $ `, a backslash outside quotes keeps the
// next character, and unquoted blanks separate words.
func Split(line string) ([]string, error) {
	var (
		args  []string
		cur   strings.Builder
		have  bool
		quote rune
		esc   bool
	)
	for _, r := range line {
		switch {
		case esc:
			if quote == '"' && !strings.ContainsRune("\"\\$`\n", r) {
				cur.WriteRune('\\')
			}
			if r != '\n' {
				cur.WriteRune(r)
			}
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				esc = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, have = true, true
		case r == '\'' || r == '"':
			quote, have = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if esc {
		return nil, errors.New("the line ends in a backslash")
	}
	if have {
		args = append(args, cur.String())
	}
	return args, nil
}
