package i18n

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// errNotCollection is the error of FirstFace given a font that is not a
// TrueType/OpenType collection.
var errNotCollection = errors.New("not a font collection")

// collectionFace returns face index of a TrueType/OpenType collection
// (.ttc, "ttcf") as a font file of its own. Fyne loads a theme font with
// go-text's ParseTTF (fyne.io/fyne/v2/internal/painter/font.go), which
// refuses a collection, and the CJK fonts systems ship are collections
// (Noto Sans CJK, Yu Gothic, Microsoft YaHei): the face's tables are
// copied after a table directory of its own. Faces of a collection share
// tables; each copy is the face's own.
func collectionFace(data []byte, index int) ([]byte, error) {
	if len(data) < 12 || string(data[:4]) != "ttcf" {
		return nil, errNotCollection
	}
	n := int(binary.BigEndian.Uint32(data[8:]))
	if index < 0 || index >= n || len(data) < 12+4*n {
		return nil, fmt.Errorf("face %d of a collection of %d", index, n)
	}
	at := int(binary.BigEndian.Uint32(data[12+4*index:]))
	if at+12 > len(data) {
		return nil, fmt.Errorf("face %d: offset %d past the end", index, at)
	}
	tables := int(binary.BigEndian.Uint16(data[at+4:]))
	dir := at + 12
	if dir+16*tables > len(data) {
		return nil, fmt.Errorf("face %d: table directory past the end", index)
	}
	head := 12 + 16*tables
	size := head
	for i := range tables {
		e := data[dir+16*i:]
		size += pad4(int(binary.BigEndian.Uint32(e[12:])))
	}
	out := make([]byte, head, size)
	copy(out, data[at:at+12])
	for i := range tables {
		e := data[dir+16*i : dir+16*i+16]
		off, length := int(binary.BigEndian.Uint32(e[8:])), int(binary.BigEndian.Uint32(e[12:]))
		if off+length > len(data) {
			return nil, fmt.Errorf("face %d: table %q past the end", index, e[:4])
		}
		d := out[12+16*i:]
		copy(d, e[:8]) // tag and checksum
		binary.BigEndian.PutUint32(d[8:], uint32(len(out)))
		binary.BigEndian.PutUint32(d[12:], uint32(length))
		out = append(out, data[off:off+length]...)
		out = append(out, make([]byte, pad4(length)-length)...)
	}
	return out, nil
}

func pad4(n int) int { return (n + 3) &^ 3 }
