package push

// frameType finds the top-level "type" string of a JSON object without
// decoding it, so a frame is decoded once, straight into its own struct.
// ok is false whenever it cannot tell simply (not an object, escapes in a
// key or in the type, a non-string type, malformed input): the caller then
// falls back to encoding/json, which also reports the error. When ok is
// true the result is the one encoding/json would give, the last "type" key
// matched case-insensitively.
func frameType(b []byte) (typ string, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return "", true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return "", false
		}
		end, esc := scanString(b, i)
		if end < 0 || esc {
			return "", false // an escaped key might spell "type"
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return "", false
		}
		i = skipSpace(b, i+1)
		if isTypeKey(key) {
			if i >= len(b) || b[i] != '"' {
				return "", false
			}
			vend, vesc := scanString(b, i)
			if vend < 0 || vesc || !printableASCII(b[i+1:vend-1]) {
				return "", false // encoding/json would rewrite invalid UTF-8
			}
			typ = internType(b[i+1 : vend-1])
			ok = true
			i = vend
		} else if i = skipValue(b, i); i < 0 {
			return "", false
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return "", false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return typ, ok
		default:
			return "", false
		}
	}
}

func isTypeKey(k []byte) bool {
	if len(k) != 4 {
		return false
	}
	const want = "type"
	for i := range 4 {
		if k[i]|0x20 != want[i] {
			return false
		}
	}
	return true
}

// internType returns the frame types the client reads without allocating.
func internType(b []byte) string {
	switch string(b) {
	case "ready":
		return "ready"
	case "render":
		return "render"
	case "speech":
		return "speech"
	case "turn_end":
		return "turn_end"
	case "error":
		return "error"
	case "tool_status":
		return "tool_status"
	case "tool_call":
		return "tool_call"
	case "reasoning":
		return "reasoning"
	case "delegations":
		return "delegations"
	}
	return string(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index after the closing quote of the string that
// opens at b[i], and whether it holds escapes; -1 when it does not close.
func scanString(b []byte, i int) (end int, esc bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1, esc
		case '\\':
			esc = true
			j++
		}
	}
	return -1, esc
}

// skipValue returns the index after the value starting at b[i], -1 when
// it cannot find its end. It is lenient: encoding/json validates later.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end, _ := scanString(b, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, _ := scanString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func printableASCII(b []byte) bool {
	for _, ch := range b {
		if ch < 0x20 || ch >= 0x7f {
			return false
		}
	}
	return true
}
