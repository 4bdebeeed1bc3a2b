package vrmtest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
)

// The glTF document the avatar is written as: only the fields it uses,
// in structs so that the JSON (and so the bytes) is the same every time.
type (
	doc struct {
		Asset          asset            `json:"asset"`
		ExtensionsUsed []string         `json:"extensionsUsed"`
		Extensions     map[string]any   `json:"extensions"`
		Scene          int              `json:"scene"`
		Scenes         []scene          `json:"scenes"`
		Nodes          []node           `json:"nodes"`
		Meshes         []mesh           `json:"meshes,omitempty"`
		Skins          []skin           `json:"skins,omitempty"`
		Materials      []any            `json:"materials,omitempty"`
		Textures       []texture        `json:"textures,omitempty"`
		Samplers       []sampler        `json:"samplers,omitempty"`
		Images         []img            `json:"images,omitempty"`
		Accessors      []accessor       `json:"accessors"`
		BufferViews    []bufferView     `json:"bufferViews"`
		Buffers        []buffer         `json:"buffers"`
		Animations     []map[string]any `json:"animations,omitempty"`
	}
	asset struct {
		Version   string `json:"version"`
		Generator string `json:"generator"`
	}
	scene struct {
		Nodes []int `json:"nodes"`
	}
	node struct {
		Name        string      `json:"name"`
		Children    []int       `json:"children,omitempty"`
		Translation *[3]float32 `json:"translation,omitempty"`
		Mesh        *int        `json:"mesh,omitempty"`
		Skin        *int        `json:"skin,omitempty"`
	}
	mesh struct {
		Name       string         `json:"name"`
		Primitives []primitive    `json:"primitives"`
		Weights    []float32      `json:"weights,omitempty"`
		Extras     map[string]any `json:"extras,omitempty"`
	}
	primitive struct {
		Attributes map[string]int   `json:"attributes"`
		Indices    int              `json:"indices"`
		Material   int              `json:"material"`
		Targets    []map[string]int `json:"targets,omitempty"`
	}
	skin struct {
		InverseBindMatrices int   `json:"inverseBindMatrices"`
		Joints              []int `json:"joints"`
		Skeleton            int   `json:"skeleton"`
	}
	texture struct {
		Sampler int `json:"sampler"`
		Source  int `json:"source"`
	}
	sampler struct {
		MagFilter int `json:"magFilter"`
		MinFilter int `json:"minFilter"`
		WrapS     int `json:"wrapS"`
		WrapT     int `json:"wrapT"`
	}
	img struct {
		Name       string `json:"name"`
		BufferView int    `json:"bufferView"`
		MimeType   string `json:"mimeType"`
	}
	accessor struct {
		BufferView    int       `json:"bufferView"`
		ComponentType int       `json:"componentType"`
		Normalized    bool      `json:"normalized,omitempty"`
		Count         int       `json:"count"`
		Type          string    `json:"type"`
		Min           []float32 `json:"min,omitempty"`
		Max           []float32 `json:"max,omitempty"`
	}
	bufferView struct {
		Buffer     int `json:"buffer"`
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
		Target     int `json:"target,omitempty"`
	}
	buffer struct {
		ByteLength int `json:"byteLength"`
	}
)

const (
	compUbyte  = 5121
	compUshort = 5123
	compUint   = 5125
	compFloat  = 5126
	arrayBuf   = 34962
	elementBuf = 34963
)

// writer accumulates the binary chunk and the document.
type writer struct {
	d   doc
	bin bytes.Buffer
	// turn turns positions half a turn about Y, for VRM 0.x (which faces −Z).
	turn bool
}

func (w *writer) turned(v vec3) vec3 {
	if !w.turn {
		return v
	}
	return vec3{0 - v[0], v[1], 0 - v[2]}
}

func (w *writer) turnedAll(vs []vec3) []vec3 {
	if !w.turn {
		return vs
	}
	out := make([]vec3, len(vs))
	for i, v := range vs {
		out[i] = w.turned(v)
	}
	return out
}

// view appends data (4-byte aligned) as a buffer view.
func (w *writer) view(data []byte, target int) int {
	for w.bin.Len()%4 != 0 {
		w.bin.WriteByte(0)
	}
	w.d.BufferViews = append(w.d.BufferViews, bufferView{ByteOffset: w.bin.Len(), ByteLength: len(data), Target: target})
	w.bin.Write(data)
	return len(w.d.BufferViews) - 1
}

func (w *writer) accessor(a accessor) int {
	w.d.Accessors = append(w.d.Accessors, a)
	return len(w.d.Accessors) - 1
}

func (w *writer) floats(v []float32, comps int, typ string, minmax bool, target int) int {
	buf := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(f))
	}
	a := accessor{BufferView: w.view(buf, target), ComponentType: compFloat, Count: len(v) / comps, Type: typ}
	if minmax && len(v) > 0 {
		a.Min, a.Max = make([]float32, comps), make([]float32, comps)
		copy(a.Min, v[:comps])
		copy(a.Max, v[:comps])
		for i, f := range v {
			k := i % comps
			a.Min[k] = min(a.Min[k], f)
			a.Max[k] = max(a.Max[k], f)
		}
	}
	return w.accessor(a)
}

func (w *writer) indices(v []uint32) int {
	if len(v) == 0 {
		return -1
	}
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], x)
	}
	return w.accessor(accessor{BufferView: w.view(buf, elementBuf), ComponentType: compUint, Count: len(v), Type: "SCALAR"})
}

// joints writes JOINTS_0 as unsigned bytes (the skeleton has under 256
// joints) and WEIGHTS_0 as normalised unsigned shorts: both integer
// forms a reader must handle.
func (w *writer) joints(j [][4]uint8) int {
	buf := make([]byte, 0, 4*len(j))
	for _, x := range j {
		buf = append(buf, x[:]...)
	}
	return w.accessor(accessor{BufferView: w.view(buf, arrayBuf), ComponentType: compUbyte, Count: len(j), Type: "VEC4"})
}

func (w *writer) weights(ws [][4]float32) int {
	buf := make([]byte, 8*len(ws))
	for i, x := range ws {
		// Quantised so the four still sum to exactly 65535.
		var q [4]uint16
		sum := 0
		for k := 0; k < 3; k++ {
			q[k] = uint16(math.Round(float64(x[k]) * 65535))
			sum += int(q[k])
		}
		q[3] = uint16(max(0, 65535-sum))
		for k := 0; k < 4; k++ {
			binary.LittleEndian.PutUint16(buf[8*i+2*k:], q[k])
		}
	}
	return w.accessor(accessor{BufferView: w.view(buf, arrayBuf), ComponentType: compUshort, Normalized: true,
		Count: len(ws), Type: "VEC4"})
}

// glb writes the document and binary chunk as a GLB.
func (w *writer) glb() []byte {
	for w.bin.Len()%4 != 0 {
		w.bin.WriteByte(0)
	}
	w.d.Buffers = []buffer{{ByteLength: w.bin.Len()}}
	js, err := json.Marshal(w.d)
	if err != nil {
		panic("vrmtest: " + err.Error()) // the document is made of plain values
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var out bytes.Buffer
	total := 12 + 8 + len(js) + 8 + w.bin.Len()
	le := func(v uint32) { _ = binary.Write(&out, binary.LittleEndian, v) }
	le(0x46546C67)
	le(2)
	le(uint32(total))
	le(uint32(len(js)))
	le(0x4E4F534A)
	out.Write(js)
	le(uint32(w.bin.Len()))
	le(0x004E4942)
	out.Write(w.bin.Bytes())
	return out.Bytes()
}
