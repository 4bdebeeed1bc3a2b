package shimeji

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/transform"
)

// Limits of a configuration file.
const (
	MaxConfigBytes = 8 << 20 // bytes of actions.xml or behaviors.xml
	maxDepth       = 64      // element nesting
	maxPoses       = 20000   // poses over the whole file
)

// Pose is one <Pose> (<ポーズ>): an image drawn with its anchor on the
// mascot's position for Duration ticks of 40 ms, moving by Velocity pixels
// a tick.
type Pose struct {
	Image    string
	Anchor   [2]int
	Velocity [2]float64
	Ticks    int
}

// Action is a named action with the poses of its animation.
type Action struct {
	Name string
	// Poses are the poses of the animation chosen: the first one with no
	// condition, else the first one.
	Poses []Pose
	// HasAnimation is true when the action declares an <Animation>.
	HasAnimation bool
}

// openAction is an <Action> being read.
type openAction struct {
	Action
	plain bool // its animation has no condition
}

// Both dialects' names: Shimeji-ee's English and the original's Japanese.
var (
	elemAction    = map[string]bool{"Action": true, "動作": true}
	elemAnimation = map[string]bool{"Animation": true, "アニメーション": true}
	elemPose      = map[string]bool{"Pose": true, "ポーズ": true}
)

// attr returns the first attribute of start named by one of names.
func attr(start xml.StartElement, names ...string) (string, bool) {
	for _, n := range names {
		for _, a := range start.Attr {
			if a.Name.Local == n {
				return a.Value, true
			}
		}
	}
	return "", false
}

// ParseActions reads an actions file (actions.xml or 動作.xml) in either
// dialect and returns its named actions in file order. Actions nested in
// sequences are read too; an action named twice keeps the first.
func ParseActions(data []byte) ([]Action, error) {
	dec, err := newDecoder(data)
	if err != nil {
		return nil, err
	}
	var (
		out   []Action
		seen  = map[string]bool{}
		stack []*openAction // open <Action> elements; nil for unnamed ones
		anim  *[]Pose       // the animation being read, nil when ignored
		depth int
		poses int
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return nil, fmt.Errorf("elements nested deeper than %d", maxDepth)
			}
			switch name := t.Name.Local; {
			case elemAction[name]:
				n, _ := attr(t, "Name", "名前")
				var a *openAction
				if n = strings.TrimSpace(n); n != "" {
					a = &openAction{Action: Action{Name: n}}
				}
				stack = append(stack, a)
			case elemAnimation[name]:
				anim = nil
				if len(stack) == 0 || stack[len(stack)-1] == nil {
					break
				}
				a := stack[len(stack)-1]
				_, cond := attr(t, "Condition", "条件")
				// The first animation, replaced by a later one with no
				// condition when the first had one.
				if !a.HasAnimation || (!a.plain && !cond) {
					a.Poses, a.HasAnimation, a.plain = nil, true, !cond
					anim = &a.Poses
				}
			case elemPose[name]:
				if anim == nil {
					break
				}
				if poses++; poses > maxPoses {
					return nil, fmt.Errorf("more than %d poses", maxPoses)
				}
				p, err := readPose(t)
				if err != nil {
					return nil, err
				}
				*anim = append(*anim, p)
			}
		case xml.EndElement:
			depth--
			switch name := t.Name.Local; {
			case elemAnimation[name]:
				anim = nil
			case elemAction[name] && len(stack) > 0:
				a := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if a != nil && !seen[a.Name] {
					seen[a.Name] = true
					out = append(out, a.Action)
				}
			}
		}
	}
	return out, nil
}

// readPose reads a <Pose>'s attributes.
func readPose(t xml.StartElement) (Pose, error) {
	var p Pose
	img, ok := attr(t, "Image", "画像")
	if !ok || strings.TrimSpace(img) == "" {
		return p, errors.New("a pose has no image")
	}
	p.Image = strings.TrimSpace(img)
	if s, ok := attr(t, "ImageAnchor", "基準座標"); ok {
		x, y, err := pair(s)
		if err != nil {
			return p, fmt.Errorf("pose %s: anchor %q: %w", p.Image, s, err)
		}
		if x < -maxSide || y < -maxSide || x > 2*maxSide || y > 2*maxSide {
			return p, fmt.Errorf("pose %s: anchor %q is out of range", p.Image, s)
		}
		p.Anchor = [2]int{int(x), int(y)}
	}
	if s, ok := attr(t, "Velocity", "移動速度"); ok {
		x, y, err := pair(s)
		if err != nil {
			return p, fmt.Errorf("pose %s: velocity %q: %w", p.Image, s, err)
		}
		p.Velocity = [2]float64{x, y}
	}
	p.Ticks = 1
	if s, ok := attr(t, "Duration", "長さ"); ok {
		d, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return p, fmt.Errorf("pose %s: duration %q is not a whole number", p.Image, s)
		}
		p.Ticks = min(max(d, 1), maxTicks)
	}
	return p, nil
}

// pair reads "x,y".
func pair(s string) (float64, float64, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, errors.New(`want "x,y"`)
	}
	x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || x != x || y != y || x > 1e6 || x < -1e6 || y > 1e6 || y < -1e6 {
		return 0, 0, errors.New(`want two numbers "x,y"`)
	}
	return x, y, nil
}

// CheckWellFormed reports whether data (behaviors.xml) parses as XML.
func CheckWellFormed(data []byte) error {
	dec, err := newDecoder(data)
	if err != nil {
		return err
	}
	for {
		if _, err := dec.Token(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return syntaxError(err)
		}
	}
}

// declEncoding finds the encoding an XML declaration names.
var declEncoding = regexp.MustCompile(`^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']`)

// newDecoder returns a strict decoder over data as UTF-8: a byte-order
// mark is dropped, and Shift_JIS text (declared so, or not valid UTF-8,
// as Japanese Windows editors save it) is converted.
func newDecoder(data []byte) (*xml.Decoder, error) {
	if len(data) > MaxConfigBytes {
		return nil, fmt.Errorf("larger than %d MiB", MaxConfigBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	enc := ""
	if m := declEncoding.FindSubmatch(data); m != nil {
		enc = strings.ToLower(string(m[1]))
	}
	switch {
	case enc == "shift_jis" || enc == "shift-jis" || enc == "sjis" || enc == "windows-31j" || enc == "cp932" || enc == "ms932" || enc == "x-sjis":
		conv, _, err := transform.Bytes(japanese.ShiftJIS.NewDecoder(), data)
		if err != nil {
			return nil, fmt.Errorf("not Shift_JIS text: %w", err)
		}
		data = conv
	case enc == "euc-jp":
		conv, _, err := transform.Bytes(japanese.EUCJP.NewDecoder(), data)
		if err != nil {
			return nil, fmt.Errorf("not EUC-JP text: %w", err)
		}
		data = conv
	case !utf8.Valid(data):
		conv, _, err := transform.Bytes(japanese.ShiftJIS.NewDecoder(), data)
		if err != nil || !utf8.Valid(conv) {
			return nil, errors.New("neither UTF-8 nor Shift_JIS text")
		}
		data = conv
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	// The text is UTF-8 by now whatever the declaration says.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return dec, nil
}

// syntaxError words a decoder error with its line.
func syntaxError(err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("does not parse (line %d): %s", se.Line, se.Msg)
	}
	return fmt.Errorf("does not parse: %w", err)
}
