package vrm

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"testing"

	"github.com/qmuntal/gltf"
	// Linked in so that qmuntal/gltf decodes KHR_texture_transform to its
	// own type: the reader must read it either way.
	_ "github.com/qmuntal/gltf/ext/texturetransform"
)

func TestTriangulate(t *testing.T) {
	idx := []uint32{0, 1, 2, 3, 4}
	cases := []struct {
		mode gltf.PrimitiveMode
		want []uint32
	}{
		{gltf.PrimitiveTriangles, []uint32{0, 1, 2}},
		{gltf.PrimitiveTriangleStrip, []uint32{0, 1, 2, 2, 1, 3, 2, 3, 4}},
		{gltf.PrimitiveTriangleFan, []uint32{1, 2, 0, 2, 3, 0, 3, 4, 0}},
	}
	for _, c := range cases {
		got := triangulate(c.mode, idx)
		if !equal(got, c.want) {
			t.Errorf("mode %v: %v, want %v", c.mode, got, c.want)
		}
	}
	if got := triangulate(gltf.PrimitiveTriangleStrip, idx[:2]); len(got) != 0 {
		t.Errorf("a two-vertex strip made %v", got)
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDecompose(t *testing.T) {
	// Translate (1, 2, 3), turn a quarter about Z, scale (2, 2, 2).
	m := [16]float64{0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}
	tr, q, s := decompose(m)
	if tr != (Vec3{1, 2, 3}) || math.Abs(float64(s[0])-2) > 1e-6 || math.Abs(float64(s[2])-2) > 1e-6 {
		t.Errorf("t %v s %v", tr, s)
	}
	h := float32(math.Sqrt(0.5))
	if math.Abs(float64(q[2]-h)) > 1e-6 || math.Abs(float64(q[3]-h)) > 1e-6 {
		t.Errorf("q %v", q)
	}
}

// TestReadAttributeForms reads normalised unsigned-byte texture
// coordinates, a triangle strip, a points primitive (skipped), a node
// matrix, an unlit material with a texture transform, and an accessor
// with a stride.
func TestReadAttributeForms(t *testing.T) {
	doc, bin := minimal()
	// UVs: 3 × 2 unsigned bytes, strided to 4 bytes, at offset 44.
	bin = append(bin, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0)
	// A one-pixel PNG image at 56.
	var pngBuf bytes.Buffer
	pngBuf.Write(onePixelPNG(t))
	imgOff := len(bin)
	bin = append(bin, pngBuf.Bytes()...)
	doc["bufferViews"] = append(doc["bufferViews"].([]any),
		obj{"buffer": 0, "byteOffset": 44, "byteLength": 12, "byteStride": 4},
		obj{"buffer": 0, "byteOffset": imgOff, "byteLength": pngBuf.Len()})
	doc["accessors"] = append(doc["accessors"].([]any),
		obj{"bufferView": 2, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC2"})
	doc["buffers"] = []any{obj{"byteLength": len(bin)}}
	doc["images"] = []any{obj{"bufferView": 3, "mimeType": "image/png"}}
	doc["textures"] = []any{obj{"source": 0}}
	doc["materials"] = []any{obj{
		"pbrMetallicRoughness": obj{"baseColorTexture": obj{"index": 0,
			"extensions": obj{"KHR_texture_transform": obj{"offset": []float64{0.5, 0.25}, "scale": []float64{2, 4}}}}},
		"emissiveFactor": []float64{0.5, 0.25, 0},
		"extensions": obj{"KHR_materials_unlit": obj{},
			"KHR_materials_emissive_strength": obj{"emissiveStrength": 2}},
	}}
	prims := at(doc, "meshes", 0)
	prims["primitives"] = []any{
		obj{"attributes": obj{"POSITION": 0, "TEXCOORD_0": 2}, "mode": 5, "material": 0},
		obj{"attributes": obj{"POSITION": 0}, "mode": 0},
	}
	at(doc, "nodes", 1)["matrix"] = []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1}
	m, err := Read(bytes.NewReader(glb(t, doc, bin)))
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Meshes[0].Primitives
	if len(ps) != 1 {
		t.Fatalf("%d primitives, want the points skipped", len(ps))
	}
	if !equal(ps[0].Indices, []uint32{0, 1, 2}) {
		t.Errorf("strip indices %v", ps[0].Indices)
	}
	if ps[0].UVs[1] != (Vec2{1, 0}) || ps[0].UVs[2] != (Vec2{0, 1}) {
		t.Errorf("UVs %v", ps[0].UVs)
	}
	if m.Nodes[1].Translation != (Vec3{4, 5, 6}) || m.Nodes[1].Rotation != (Quat{0, 0, 0, 1}) {
		t.Errorf("node %+v", m.Nodes[1])
	}
	mat := m.Materials[0]
	if !mat.Unlit || mat.BaseTexture.Offset != (Vec2{0.5, 0.25}) || mat.BaseTexture.Scale != (Vec2{2, 4}) {
		t.Errorf("material %+v", mat)
	}
	if mat.Emissive != (Vec3{1, 0.5, 0}) {
		t.Errorf("emissive %v, want the factor times the strength", mat.Emissive)
	}
	if img, err := m.Textures[0].Decode(); err != nil || img.Bounds().Dx() != 1 {
		t.Errorf("texture: %v", err)
	}
}

func onePixelPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
