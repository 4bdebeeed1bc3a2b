package vrm

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// maxElements bounds the components all accessors of one file may expand
// to (float32 or uint32 each), so that sparse accessors (which need no
// bytes for their zeros) and shared accessors cannot make a small file
// allocate gigabytes.
const (
	maxElements = 96 << 20
	minElements = 8 << 20
)

// accessorInfo is an accessor checked against its buffer view: every
// element it names lies inside the view.
type accessorInfo struct {
	acc      *gltf.Accessor
	comps    int
	compSize int
	data     []byte // nil: no buffer view (zeros, then sparse)
	stride   int
}

func componentCount(t gltf.AccessorType) int {
	switch t {
	case gltf.AccessorScalar:
		return 1
	case gltf.AccessorVec2:
		return 2
	case gltf.AccessorVec3:
		return 3
	case gltf.AccessorVec4, gltf.AccessorMat2:
		return 4
	case gltf.AccessorMat3:
		return 9
	case gltf.AccessorMat4:
		return 16
	}
	return 0
}

func componentSize(t gltf.ComponentType) int {
	switch t {
	case gltf.ComponentByte, gltf.ComponentUbyte:
		return 1
	case gltf.ComponentShort, gltf.ComponentUshort:
		return 2
	case gltf.ComponentUint, gltf.ComponentFloat:
		return 4
	}
	return 0
}

// accessor checks accessor i: its count against the limits and its
// elements against its buffer view, before anything is allocated.
func (c *container) accessor(i int) (accessorInfo, error) {
	if i < 0 || i >= len(c.doc.Accessors) || c.doc.Accessors[i] == nil {
		return accessorInfo{}, fmt.Errorf("vrm: accessor %d out of range", i)
	}
	a := c.doc.Accessors[i]
	ai := accessorInfo{acc: a, comps: componentCount(a.Type), compSize: componentSize(a.ComponentType)}
	if ai.comps == 0 || ai.compSize == 0 {
		return ai, fmt.Errorf("vrm: accessor %d: bad type", i)
	}
	if (a.Type == gltf.AccessorMat2 || a.Type == gltf.AccessorMat3) && ai.compSize < 4 {
		// Their columns are padded to 4 bytes; no VRM data uses them.
		return ai, fmt.Errorf("vrm: accessor %d: padded matrix accessors are not supported", i)
	}
	if a.Count < 0 || a.Count > MaxIndices {
		return ai, fmt.Errorf("vrm: accessor %d: count %d out of range (at most %d)", i, a.Count, MaxIndices)
	}
	if int64(a.Count)*int64(ai.comps) > maxElements {
		return ai, fmt.Errorf("vrm: accessor %d: %d elements would exhaust memory", i, a.Count)
	}
	if a.BufferView == nil {
		// All zeros, but for the sparse substitution if any.
		return ai, nil
	}
	view, stride, err := c.view(*a.BufferView)
	if err != nil {
		return ai, fmt.Errorf("vrm: accessor %d: %w", i, err)
	}
	elem := ai.comps * ai.compSize
	if stride == 0 {
		stride = elem
	}
	if stride < elem {
		return ai, fmt.Errorf("vrm: accessor %d: stride %d shorter than its %d-byte element", i, stride, elem)
	}
	if a.ByteOffset < 0 || a.ByteOffset > len(view) {
		return ai, fmt.Errorf("vrm: accessor %d: offset %d outside its %d-byte buffer view", i, a.ByteOffset, len(view))
	}
	if a.Count > 0 {
		need := int64(a.ByteOffset) + int64(stride)*int64(a.Count-1) + int64(elem)
		if need > int64(len(view)) {
			return ai, fmt.Errorf("vrm: accessor %d: %d elements need %d bytes, its buffer view has %d",
				i, a.Count, need, len(view))
		}
	}
	ai.data = view[a.ByteOffset:]
	ai.stride = stride
	return ai, nil
}

// charge takes n elements from the file's budget: a floor every real
// model fits in, more for a larger file, never over maxElements. Data a
// file does not hold (an accessor without a buffer view, read as zeros)
// cannot make a small file expand without bound.
func (c *container) charge(n int) error {
	c.spent += int64(n)
	if c.spent > min(maxElements, minElements+4*int64(c.size)) {
		return fmt.Errorf("vrm: the model's data would exhaust memory (over %d values)", maxElements)
	}
	return nil
}

// component reads component k of element e as a float64, normalised to
// -1..1 or 0..1 when norm is set.
func (ai *accessorInfo) component(data []byte, e, k, stride int, norm bool) float64 {
	p := data[e*stride+k*ai.compSize:]
	return decodeComponent(p, ai.acc.ComponentType, norm)
}

func decodeComponent(p []byte, t gltf.ComponentType, norm bool) float64 {
	switch t {
	case gltf.ComponentFloat:
		f := float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			// Exporters leave NaN in degenerate normals; none of what
			// is read here means anything by it, and what is drawn from
			// it must not see it.
			return 0
		}
		return f
	case gltf.ComponentByte:
		v := float64(int8(p[0]))
		if norm {
			return math.Max(v/127, -1)
		}
		return v
	case gltf.ComponentUbyte:
		v := float64(p[0])
		if norm {
			return v / 255
		}
		return v
	case gltf.ComponentShort:
		v := float64(int16(binary.LittleEndian.Uint16(p)))
		if norm {
			return math.Max(v/32767, -1)
		}
		return v
	case gltf.ComponentUshort:
		v := float64(binary.LittleEndian.Uint16(p))
		if norm {
			return v / 65535
		}
		return v
	case gltf.ComponentUint:
		v := float64(binary.LittleEndian.Uint32(p))
		if norm {
			return v / 4294967295
		}
		return v
	}
	return 0
}

// floats reads accessor i as float32s, comps per element (it must have
// that many). Integer components are normalised when the accessor says
// so or forceNorm is set (glTF requires it of integer weights, texture
// coordinates and colours).
func (c *container) floats(i, comps int, forceNorm bool) ([]float32, error) {
	ai, err := c.accessor(i)
	if err != nil {
		return nil, err
	}
	if ai.comps != comps {
		return nil, fmt.Errorf("vrm: accessor %d has %d components, want %d", i, ai.comps, comps)
	}
	n := ai.acc.Count * comps
	if err := c.charge(n); err != nil {
		return nil, err
	}
	norm := ai.acc.Normalized || (forceNorm && ai.acc.ComponentType != gltf.ComponentFloat)
	out := make([]float32, n)
	if ai.data != nil {
		for e := 0; e < ai.acc.Count; e++ {
			for k := 0; k < comps; k++ {
				out[e*comps+k] = float32(ai.component(ai.data, e, k, ai.stride, norm))
			}
		}
	}
	err = c.sparse(i, ai, func(e int, vals []byte, vi int) {
		for k := 0; k < comps; k++ {
			out[e*comps+k] = float32(ai.component(vals, vi, k, comps*ai.compSize, norm))
		}
	})
	return out, err
}

// uints reads accessor i (unsigned integer components) as uint32s.
func (c *container) uints(i, comps int) ([]uint32, error) {
	ai, err := c.accessor(i)
	if err != nil {
		return nil, err
	}
	if ai.comps != comps {
		return nil, fmt.Errorf("vrm: accessor %d has %d components, want %d", i, ai.comps, comps)
	}
	switch ai.acc.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, fmt.Errorf("vrm: accessor %d: integer data must be unsigned", i)
	}
	n := ai.acc.Count * comps
	if err := c.charge(n); err != nil {
		return nil, err
	}
	out := make([]uint32, n)
	if ai.data != nil {
		for e := 0; e < ai.acc.Count; e++ {
			for k := 0; k < comps; k++ {
				out[e*comps+k] = uint32(ai.component(ai.data, e, k, ai.stride, false))
			}
		}
	}
	err = c.sparse(i, ai, func(e int, vals []byte, vi int) {
		for k := 0; k < comps; k++ {
			out[e*comps+k] = uint32(ai.component(vals, vi, k, comps*ai.compSize, false))
		}
	})
	return out, err
}

// sparse applies accessor i's sparse substitution, if any, calling set
// for each substituted element e with the values' bytes and their index.
func (c *container) sparse(i int, ai accessorInfo, set func(e int, vals []byte, vi int)) error {
	s := ai.acc.Sparse
	if s == nil {
		return nil
	}
	if s.Count < 0 || s.Count > ai.acc.Count {
		return fmt.Errorf("vrm: accessor %d: sparse count %d out of range", i, s.Count)
	}
	if s.Count == 0 {
		return nil
	}
	idxView, _, err := c.view(s.Indices.BufferView)
	if err != nil {
		return fmt.Errorf("vrm: accessor %d sparse indices: %w", i, err)
	}
	valView, _, err := c.view(s.Values.BufferView)
	if err != nil {
		return fmt.Errorf("vrm: accessor %d sparse values: %w", i, err)
	}
	isz := componentSize(s.Indices.ComponentType)
	switch s.Indices.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return fmt.Errorf("vrm: accessor %d: sparse indices must be unsigned", i)
	}
	elem := ai.comps * ai.compSize
	if s.Indices.ByteOffset < 0 || s.Values.ByteOffset < 0 ||
		s.Indices.ByteOffset > len(idxView) || s.Values.ByteOffset > len(valView) ||
		int64(s.Indices.ByteOffset)+int64(s.Count)*int64(isz) > int64(len(idxView)) ||
		int64(s.Values.ByteOffset)+int64(s.Count)*int64(elem) > int64(len(valView)) {
		return fmt.Errorf("vrm: accessor %d: sparse data lies outside its buffer views", i)
	}
	idx := idxView[s.Indices.ByteOffset:]
	vals := valView[s.Values.ByteOffset:]
	for k := 0; k < s.Count; k++ {
		e := int(decodeComponent(idx[k*isz:], s.Indices.ComponentType, false))
		if e >= ai.acc.Count {
			return fmt.Errorf("vrm: accessor %d: sparse index %d out of range", i, e)
		}
		set(e, vals, k)
	}
	return nil
}

// vec3s, vec4s, vec2s reshape flat floats.
func vec3s(f []float32) []Vec3 {
	out := make([]Vec3, len(f)/3)
	for i := range out {
		out[i] = Vec3{f[3*i], f[3*i+1], f[3*i+2]}
	}
	return out
}

func vec2s(f []float32) []Vec2 {
	out := make([]Vec2, len(f)/2)
	for i := range out {
		out[i] = Vec2{f[2*i], f[2*i+1]}
	}
	return out
}

func vec4s(f []float32) []Vec4 {
	out := make([]Vec4, len(f)/4)
	for i := range out {
		out[i] = Vec4{f[4*i], f[4*i+1], f[4*i+2], f[4*i+3]}
	}
	return out
}
