package vrm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"math"
	"runtime"
	"strings"
	"testing"

	"yui/pet/character/vrm/vrmtest"
)

// glb wraps a glTF JSON document and a binary chunk as a GLB file.
func glb(t testing.TB, doc any, bin []byte) []byte {
	t.Helper()
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	var b bytes.Buffer
	w := func(v uint32) { _ = binary.Write(&b, binary.LittleEndian, v) }
	w(glbMagic)
	w(2)
	w(uint32(12 + 8 + len(js) + 8 + len(bin)))
	w(uint32(len(js)))
	w(glbChunkJSON)
	b.Write(js)
	w(uint32(len(bin)))
	w(glbChunkBIN)
	b.Write(bin)
	return b.Bytes()
}

type obj = map[string]any

// minimal is a one-triangle VRM 1.0 model: its JSON as maps to mutate
// and its binary chunk (positions at 0, indices at 36).
func minimal() (obj, []byte) {
	bin := make([]byte, 0, 44)
	for _, f := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(f))
	}
	for _, i := range []uint16{0, 1, 2, 0} {
		bin = binary.LittleEndian.AppendUint16(bin, i)
	}
	doc := obj{
		"asset":  obj{"version": "2.0"},
		"scene":  0,
		"scenes": []any{obj{"nodes": []any{0}}},
		"nodes": []any{
			obj{"name": "root", "children": []any{1}},
			obj{"name": "hips", "mesh": 0},
		},
		"meshes": []any{obj{"primitives": []any{obj{
			"attributes": obj{"POSITION": 0}, "indices": 1,
		}}}},
		"accessors": []any{
			obj{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
			obj{"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
		},
		"bufferViews": []any{
			obj{"buffer": 0, "byteOffset": 0, "byteLength": 36},
			obj{"buffer": 0, "byteOffset": 36, "byteLength": 8},
		},
		"buffers": []any{obj{"byteLength": 44}},
		"extensions": obj{"VRMC_vrm": obj{
			"specVersion": "1.0",
			"meta":        obj{"name": "min", "avatarPermission": "everyone"},
			"humanoid":    obj{"humanBones": obj{"hips": obj{"node": 1}}},
		}},
	}
	return doc, bin
}

func at(doc obj, path ...any) obj {
	var cur any = doc
	for _, p := range path {
		switch k := p.(type) {
		case string:
			cur = cur.(obj)[k]
		case int:
			cur = cur.([]any)[k]
		}
	}
	return cur.(obj)
}

func TestReadMinimal(t *testing.T) {
	doc, bin := minimal()
	m, err := Read(bytes.NewReader(glb(t, doc, bin)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes[0].Primitives[0].Indices) != 3 || m.Humanoid["hips"] != 1 || m.Meta.AllowedUser != "Everyone" {
		t.Errorf("read %+v", m)
	}
}

func TestReadBadInput(t *testing.T) {
	pngData := func() []byte {
		var b bytes.Buffer
		_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4)))
		return b.Bytes()
	}()
	valid := func() []byte { d, b := minimal(); return glb(t, d, b) }()
	mutate := func(f func(doc obj, bin []byte) []byte) []byte {
		doc, bin := minimal()
		if nb := f(doc, bin); nb != nil {
			bin = nb
		}
		return glb(t, doc, bin)
	}
	cases := []struct {
		name, want string
		data       []byte
	}{
		{"empty", "vrm: not a glTF binary: 0 bytes", nil},
		{"png renamed", "vrm: not a glTF binary: it is a PNG image", pngData},
		{"gltf text", "vrm: not a glTF binary: it is JSON text", []byte(`{"asset":{"version":"2.0"}}`)},
		{"truncated", "vrm: truncated file", valid[:len(valid)-10]},
		{"truncated header", "vrm: truncated file", valid[:16]},
		{"version 1", "vrm: not a glTF binary: container version 1", func() []byte {
			b := bytes.Clone(valid)
			b[4] = 1
			return b
		}()},
		{"chunk too long", "vrm: truncated file: chunk 0", func() []byte {
			b := bytes.Clone(valid)
			binary.LittleEndian.PutUint32(b[12:], 1<<30)
			return b
		}()},
		{"bad json", "vrm: bad glTF JSON", func() []byte {
			b := bytes.Clone(valid)
			b[20] = '['
			return b
		}()},
		{"no vrm extension", "vrm: not a VRM model: the glTF has no VRM or VRMC_vrm extension", mutate(func(d obj, _ []byte) []byte {
			delete(d, "extensions")
			return nil
		})},
		{"required extension", "needs the glTF extension KHR_draco_mesh_compression", mutate(func(d obj, _ []byte) []byte {
			d["extensionsRequired"] = []any{"KHR_draco_mesh_compression"}
			return nil
		})},
		{"json bomb", "the glTF JSON has over 1048576 values", mutate(func(d obj, _ []byte) []byte {
			nodes := make([]any, 1<<20)
			for i := range nodes {
				nodes[i] = obj{}
			}
			d["extras"] = nodes
			return nil
		})},
		{"node out of float range", "vrm: node 1: its transform is not finite", mutate(func(d obj, _ []byte) []byte {
			at(d, "nodes", 1)["translation"] = []float64{1e300, 0, 0}
			return nil
		})},
		{"accessor out of range", "accessor 9 out of range", mutate(func(d obj, _ []byte) []byte {
			at(d, "meshes", 0, "primitives", 0)["attributes"] = obj{"POSITION": 9}
			return nil
		})},
		{"buffer view out of range", "buffer view 7 out of range", mutate(func(d obj, _ []byte) []byte {
			at(d, "accessors", 0)["bufferView"] = 7
			return nil
		})},
		{"accessor past its view", "3 elements need 48 bytes", mutate(func(d obj, _ []byte) []byte {
			at(d, "accessors", 0)["byteOffset"] = 12
			return nil
		})},
		{"view past its buffer", "lies outside its 44-byte buffer", mutate(func(d obj, _ []byte) []byte {
			at(d, "bufferViews", 1)["byteLength"] = 800
			return nil
		})},
		{"buffer longer than the chunk", "buffer 0 says 4000 bytes but has 44", mutate(func(d obj, _ []byte) []byte {
			at(d, "buffers", 0)["byteLength"] = 4000
			return nil
		})},
		{"external buffer", "refers to an external file", mutate(func(d obj, _ []byte) []byte {
			at(d, "buffers", 0)["uri"] = "model.bin"
			return nil
		})},
		{"index out of range", "index 9 out of range of 3 vertices", mutate(func(d obj, bin []byte) []byte {
			binary.LittleEndian.PutUint16(bin[38:], 9)
			return bin
		})},
		{"huge vertex count", "over 8388608 vertices", mutate(func(d obj, _ []byte) []byte {
			at(d, "accessors", 0)["count"] = 1000000000
			return nil
		})},
		{"huge count", "count 1000000000 out of range", mutate(func(d obj, _ []byte) []byte {
			at(d, "accessors", 1)["count"] = 1000000000
			return nil
		})},
		{"huge sparse accessor", "over 8388608 vertices", mutate(func(d obj, _ []byte) []byte {
			delete(at(d, "accessors", 0), "bufferView")
			at(d, "accessors", 0)["count"] = 30000000
			return nil
		})},
		{"too many morph targets", "2000 morph targets", mutate(func(d obj, _ []byte) []byte {
			ts := make([]any, 2000)
			for i := range ts {
				ts[i] = obj{"POSITION": 0}
			}
			at(d, "meshes", 0, "primitives", 0)["targets"] = ts
			return nil
		})},
		{"node loop", "vrm: node tree loops", mutate(func(d obj, _ []byte) []byte {
			at(d, "nodes", 1)["children"] = []any{2}
			d["nodes"] = append(d["nodes"].([]any), obj{"name": "x", "children": []any{1}})
			at(d, "nodes", 0)["children"] = []any{}
			return nil
		})},
		{"own child", "node 1 is its own child", mutate(func(d obj, _ []byte) []byte {
			at(d, "nodes", 1)["children"] = []any{1}
			return nil
		})},
		{"two parents", "vrm: node 1 has two parents (0 and 2)", mutate(func(d obj, _ []byte) []byte {
			d["nodes"] = append(d["nodes"].([]any), obj{"name": "x", "children": []any{1}})
			return nil
		})},
		{"child out of range", "child 40 out of range", mutate(func(d obj, _ []byte) []byte {
			at(d, "nodes", 1)["children"] = []any{40}
			return nil
		})},
		{"bone out of range", "humanoid bone hips: node 12 out of range", mutate(func(d obj, _ []byte) []byte {
			at(d, "extensions", "VRMC_vrm", "humanoid", "humanBones", "hips")["node"] = 12
			return nil
		})},
		{"no hips", "the humanoid has no hips bone", mutate(func(d obj, _ []byte) []byte {
			at(d, "extensions", "VRMC_vrm", "humanoid")["humanBones"] = obj{}
			return nil
		})},
		{"bad vrm spec version", "specVersion \"0.5\"", mutate(func(d obj, _ []byte) []byte {
			at(d, "extensions", "VRMC_vrm")["specVersion"] = "0.5"
			return nil
		})},
		{"material out of range", "material 3 out of range", mutate(func(d obj, _ []byte) []byte {
			at(d, "meshes", 0, "primitives", 0)["material"] = 3
			return nil
		})},
		{"sparse index out of range", "sparse index 200 out of range", mutate(func(d obj, bin []byte) []byte {
			at(d, "accessors", 0)["sparse"] = obj{"count": 1,
				"indices": obj{"bufferView": 1, "componentType": 5121, "byteOffset": 7},
				"values":  obj{"bufferView": 0}}
			bin[36+7] = 200
			return bin
		})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Read(bytes.NewReader(c.data))
			if err == nil {
				t.Fatalf("read %+v, want an error", m)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "vrm: ") || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line starting \"vrm: \" containing %q", msg, c.want)
			}
		})
	}
}

// TestReadZeroesNaN: a NaN in the data is read as 0, so nothing drawn
// from the model computes with it.
func TestReadZeroesNaN(t *testing.T) {
	doc, bin := minimal()
	binary.LittleEndian.PutUint32(bin[4:], math.Float32bits(float32(math.NaN())))
	m, err := Read(bytes.NewReader(glb(t, doc, bin)))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Meshes[0].Primitives[0].Positions[0]; p != (Vec3{}) {
		t.Errorf("position %v", p)
	}
}

func TestDecodeRefusesHugeTexture(t *testing.T) {
	// A PNG header claiming 10000×10 pixels: refused from the header,
	// before any pixel is decoded.
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	data := b.Bytes()
	binary.BigEndian.PutUint32(data[16:], 10000)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	_, err := Texture{MIME: "image/png", Data: data}.Decode()
	if err == nil || !strings.Contains(err.Error(), "vrm: texture too large: 10000×1 pixels") {
		t.Fatalf("err %v", err)
	}
	if _, err := (Texture{MIME: "image/webp", Data: data}).Decode(); err == nil {
		t.Fatal("a WebP texture decoded")
	}
}

// TestReadKeepsTexturesEncoded reads a model with two 4096² textures and
// checks that reading allocates a bounded multiple of the file, nowhere
// near the 128 MB the decoded textures would take.
func TestReadKeepsTexturesEncoded(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes two 4096² textures")
	}
	data := vrmtest.Avatar(vrmtest.Options{Triangles: 100000, TextureSize: 4096})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := Read(bytes.NewReader(data))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(8*len(data) + 16<<20); alloc > limit {
		t.Errorf("reading a %d-byte file allocated %d bytes, over %d", len(data), alloc, limit)
	}
	if len(m.Textures) < 2 || len(m.Textures[0].Data) == 0 {
		t.Error("textures missing")
	}
}
