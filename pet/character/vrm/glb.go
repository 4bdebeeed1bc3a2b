package vrm

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/qmuntal/gltf"
)

// The GLB container (glTF 2.0 §4.4): a 12-byte header, a JSON chunk and an
// optional BIN chunk. The header and the chunk lengths are checked here,
// before github.com/qmuntal/gltf sees any of it, so that a hostile length
// never becomes an allocation.
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A // "JSON"
	glbChunkBIN  = 0x004E4942 // "BIN\0"
	maxJSONBytes = 64 << 20
	// maxJSONValues bounds the values (objects, arrays, numbers, …) of
	// the JSON chunk. Each becomes at most a few hundred bytes of
	// decoded document (a node is the largest), so a small chunk of
	// "{}, {}, …" cannot decode to gigabytes; real models have tens of
	// thousands.
	maxJSONValues = 1 << 20
)

// container is a parsed GLB: the glTF document and its binary chunk.
type container struct {
	doc *gltf.Document
	bin []byte
	// buffers are the document's buffers' bytes, resolved and checked.
	buffers [][]byte
	// spent counts the values accessors have expanded to (maxElements).
	spent int64
	// size is the file's length in bytes.
	size int
}

// readAll reads at most MaxFileBytes from r.
func readAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("vrm: reading: %w", err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("vrm: file too large: over %d bytes", MaxFileBytes)
	}
	return data, nil
}

// parseGLB checks the GLB header and chunks of data and decodes its JSON.
func parseGLB(data []byte) (*container, error) {
	if len(data) < 12 || binary.LittleEndian.Uint32(data) != glbMagic {
		what := "it does not start with \"glTF\""
		if len(data) < 12 {
			what = fmt.Sprintf("%d bytes is shorter than a GLB header", len(data))
		} else if bytes.HasPrefix(data, []byte("\x89PNG")) {
			what = "it is a PNG image"
		} else if bytes.HasPrefix(data, []byte("\xff\xd8\xff")) {
			what = "it is a JPEG image"
		} else if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			what = "it is JSON text (a .gltf, not a binary .vrm)"
		}
		return nil, fmt.Errorf("vrm: not a glTF binary: %s", what)
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, fmt.Errorf("vrm: not a glTF binary: container version %d, want 2", v)
	}
	total := uint64(binary.LittleEndian.Uint32(data[8:]))
	if total > uint64(len(data)) {
		return nil, fmt.Errorf("vrm: truncated file: the header says %d bytes, the file has %d", total, len(data))
	}
	data = data[:total]
	off := uint64(12)
	var jsonChunk, bin []byte
	for i := 0; off < total; i++ {
		if total-off < 8 {
			return nil, fmt.Errorf("vrm: truncated file: chunk %d's header is cut short", i)
		}
		n := uint64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		off += 8
		if n > total-off {
			return nil, fmt.Errorf("vrm: truncated file: chunk %d says %d bytes, %d remain", i, n, total-off)
		}
		chunk := data[off : off+n]
		off += n
		switch {
		case i == 0 && typ != glbChunkJSON:
			return nil, errors.New("vrm: not a glTF binary: the first chunk is not JSON")
		case i == 0:
			jsonChunk = chunk
		case i == 1 && typ == glbChunkBIN:
			bin = chunk
		}
		// Other chunks are ignored, as glTF says.
	}
	if jsonChunk == nil {
		return nil, errors.New("vrm: truncated file: no JSON chunk")
	}
	if len(jsonChunk) > maxJSONBytes {
		return nil, fmt.Errorf("vrm: JSON chunk too large: %d bytes, at most %d", len(jsonChunk), maxJSONBytes)
	}
	if err := countValues(jsonChunk); err != nil {
		return nil, err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(jsonChunk, doc); err != nil {
		return nil, fmt.Errorf("vrm: bad glTF JSON: %w", err)
	}
	if !strings.HasPrefix(doc.Asset.Version, "2") {
		return nil, fmt.Errorf("vrm: not a glTF 2.0 file: asset version %q", doc.Asset.Version)
	}
	for _, e := range doc.ExtensionsRequired {
		if !supportedRequired[e] {
			return nil, fmt.Errorf("vrm: the file needs the glTF extension %s, which is not supported", e)
		}
	}
	c := &container{doc: doc, bin: bin, size: len(data)}
	if err := c.resolveBuffers(); err != nil {
		return nil, err
	}
	return c, nil
}

// supportedRequired are the extensions a file may require: those read
// here, and KHR_mesh_quantization, whose integer attributes the accessor
// reader already turns into floats. Compressed geometry (Draco, meshopt)
// and other image formats (KTX2, WebP) are refused by name.
var supportedRequired = map[string]bool{
	"KHR_materials_unlit":             true,
	"KHR_texture_transform":           true,
	"KHR_mesh_quantization":           true,
	"KHR_materials_emissive_strength": true,
	extVRM0:                           true,
	extVRM1:                           true,
	extMToon:                          true,
	extVRMA:                           true,
}

// resolveBuffers finds each buffer's bytes: the BIN chunk for a GLB's
// first buffer without a URI, or an embedded base64 data URI. External
// files are refused: a .vrm is one self-contained file.
func (c *container) resolveBuffers() error {
	c.buffers = make([][]byte, len(c.doc.Buffers))
	for i, b := range c.doc.Buffers {
		if b == nil {
			return fmt.Errorf("vrm: buffer %d is null", i)
		}
		var data []byte
		switch {
		case b.URI == "" && i == 0:
			data = c.bin
		case strings.HasPrefix(b.URI, "data:"):
			comma := strings.IndexByte(b.URI, ',')
			if comma < 0 || !strings.HasSuffix(b.URI[:comma], ";base64") {
				return fmt.Errorf("vrm: buffer %d: unsupported data URI", i)
			}
			d, err := base64.StdEncoding.DecodeString(b.URI[comma+1:])
			if err != nil {
				return fmt.Errorf("vrm: buffer %d: bad base64: %w", i, err)
			}
			data = d
		default:
			return fmt.Errorf("vrm: buffer %d refers to an external file %q", i, b.URI)
		}
		if b.ByteLength < 0 || b.ByteLength > len(data) {
			return fmt.Errorf("vrm: buffer %d says %d bytes but has %d", i, b.ByteLength, len(data))
		}
		c.buffers[i] = data[:b.ByteLength]
	}
	return nil
}

// view returns buffer view i's bytes and its stride (0: tightly packed).
func (c *container) view(i int) ([]byte, int, error) {
	if i < 0 || i >= len(c.doc.BufferViews) || c.doc.BufferViews[i] == nil {
		return nil, 0, fmt.Errorf("vrm: buffer view %d out of range", i)
	}
	v := c.doc.BufferViews[i]
	if v.Buffer < 0 || v.Buffer >= len(c.buffers) {
		return nil, 0, fmt.Errorf("vrm: buffer view %d: buffer %d out of range", i, v.Buffer)
	}
	buf := c.buffers[v.Buffer]
	if v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset > len(buf) || v.ByteLength > len(buf)-v.ByteOffset {
		return nil, 0, fmt.Errorf("vrm: buffer view %d (offset %d, %d bytes) lies outside its %d-byte buffer",
			i, v.ByteOffset, v.ByteLength, len(buf))
	}
	if v.ByteStride != 0 && (v.ByteStride < 4 || v.ByteStride > 252) {
		return nil, 0, fmt.Errorf("vrm: buffer view %d: bad stride %d", i, v.ByteStride)
	}
	return buf[v.ByteOffset : v.ByteOffset+v.ByteLength], v.ByteStride, nil
}

// extension returns the JSON of extension name in ext. Extensions that
// github.com/qmuntal/gltf knows are already decoded to its types (when
// their packages are linked in); they are turned back into JSON so that
// this package reads every extension by its own typed code.
func extension(ext gltf.Extensions, name string) (json.RawMessage, bool) {
	v, ok := ext[name]
	if !ok {
		return nil, false
	}
	if raw, ok := v.(json.RawMessage); ok {
		return raw, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	return raw, true
}

// decodeExtension decodes extension name of ext into v; ok is false when
// the extension is absent.
func decodeExtension(ext gltf.Extensions, name string, v any) (bool, error) {
	raw, ok := extension(ext, name)
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("vrm: bad %s extension: %w", name, err)
	}
	return true, nil
}

// countValues counts the JSON values of js, refusing more than
// maxJSONValues before anything is decoded.
func countValues(js []byte) error {
	dec := json.NewDecoder(bytes.NewReader(js))
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("vrm: bad glTF JSON: %w", err)
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			continue
		}
		n++
		if n > maxJSONValues {
			return fmt.Errorf("vrm: the glTF JSON has over %d values", maxJSONValues)
		}
	}
}
