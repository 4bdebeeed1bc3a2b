//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The Wayland wire format, as much of it as the idle client
// (idle_wayland.go) needs: a message is the object's id, then its size
// (header included) in the high 16 bits and the opcode in the low 16 of
// one word, then the arguments, each word-aligned in the host's byte
// order; a string is its length with the terminating NUL, the bytes and
// the NUL, padded to a word.

// wlMaxMessage is the protocol's largest message (libwayland's buffer).
const wlMaxMessage = 4096

// wlMessage is one message of either side.
type wlMessage struct {
	object uint32
	opcode uint16
	args   []byte
}

var wlOrder = binary.NativeEndian

// wlArgs builds a message's arguments.
type wlArgs struct{ b []byte }

func (a *wlArgs) uint(v uint32) *wlArgs {
	a.b = wlOrder.AppendUint32(a.b, v)
	return a
}

func (a *wlArgs) string(s string) *wlArgs {
	a.uint(uint32(len(s) + 1))
	a.b = append(a.b, s...)
	a.b = append(a.b, 0)
	for len(a.b)%4 != 0 {
		a.b = append(a.b, 0)
	}
	return a
}

// encode is the message on the wire.
func (m wlMessage) encode() []byte {
	b := make([]byte, 8, 8+len(m.args))
	wlOrder.PutUint32(b, m.object)
	wlOrder.PutUint32(b[4:], uint32(8+len(m.args))<<16|uint32(m.opcode))
	return append(b, m.args...)
}

// readWL reads one message.
func readWL(r io.Reader) (wlMessage, error) {
	var h [8]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return wlMessage{}, err
	}
	word := wlOrder.Uint32(h[4:])
	size := int(word >> 16)
	if size < 8 || size > wlMaxMessage || size%4 != 0 {
		return wlMessage{}, fmt.Errorf("wayland: message of %d bytes", size)
	}
	m := wlMessage{object: wlOrder.Uint32(h[:]), opcode: uint16(word), args: make([]byte, size-8)}
	if _, err := io.ReadFull(r, m.args); err != nil {
		return wlMessage{}, err
	}
	return m, nil
}

// wlReader reads a message's arguments in order; a short message is an
// error, never a panic.
type wlReader struct {
	b   []byte
	err error
}

var errWLShort = errors.New("wayland: message too short")

func (r *wlReader) uint() uint32 {
	if r.err != nil || len(r.b) < 4 {
		r.err = errWLShort
		return 0
	}
	v := wlOrder.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *wlReader) string() string {
	n := int(r.uint())
	if r.err != nil {
		return ""
	}
	padded := (n + 3) &^ 3
	if n == 0 || padded > len(r.b) || r.b[n-1] != 0 {
		r.err = errWLShort
		return ""
	}
	s := string(r.b[:n-1])
	r.b = r.b[padded:]
	return s
}
