package vrmtest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// mtoon is the VRMC_materials_mtoon block of one material.
func mtoon(shade [3]float32, outline float32, rim [3]float32) map[string]any {
	m := map[string]any{
		"specVersion":                     "1.0",
		"shadeColorFactor":                shade,
		"shadingShiftFactor":              -0.1,
		"shadingToonyFactor":              0.85,
		"parametricRimColorFactor":        rim,
		"parametricRimFresnelPowerFactor": 4.0,
		"parametricRimLiftFactor":         0.05,
		"rimLightingMixFactor":            0.5,
	}
	if outline > 0 {
		m["outlineWidthMode"] = "worldCoordinates"
		m["outlineWidthFactor"] = outline
		m["outlineColorFactor"] = [3]float32{0.12, 0.06, 0.08}
		m["outlineLightingMixFactor"] = 0.6
	}
	return m
}

type material struct {
	Name                 string         `json:"name"`
	PBRMetallicRoughness map[string]any `json:"pbrMetallicRoughness"`
	AlphaMode            string         `json:"alphaMode,omitempty"`
	DoubleSided          bool           `json:"doubleSided,omitempty"`
	Extensions           map[string]any `json:"extensions,omitempty"`
}

func pbr(base [4]float32, tex int) map[string]any {
	m := map[string]any{"baseColorFactor": base, "metallicFactor": 0.0, "roughnessFactor": 1.0}
	if tex >= 0 {
		m["baseColorTexture"] = map[string]any{"index": tex}
	}
	return m
}

// writeMaterials writes the textures (skin, dress, and the meta's
// thumbnail image, which no texture shows) and the six MToon materials.
func writeMaterials(w *writer, size int, mtoonExt, grain bool) {
	skin, dress := skinTexture(size), dressTexture(size)
	if grain {
		addGrain(skin, 1)
		addGrain(dress, 2)
	}
	skinImg := w.view(pngOf(skin), 0)
	dressImg := w.view(pngOf(dress), 0)
	thumb := w.view(pngOf(skinTexture(64)), 0)
	w.d.Images = []img{
		{Name: "Skin", BufferView: skinImg, MimeType: "image/png"},
		{Name: "Dress", BufferView: dressImg, MimeType: "image/png"},
		{Name: "Thumbnail", BufferView: thumb, MimeType: "image/png"},
	}
	w.d.Samplers = []sampler{{MagFilter: 9729, MinFilter: 9987, WrapS: 10497, WrapT: 10497}}
	w.d.Textures = []texture{{Sampler: 0, Source: 0}, {Sampler: 0, Source: 1}}
	ext := func(m map[string]any) map[string]any {
		if !mtoonExt {
			return nil // VRM 0.x keeps MToon in its own extension
		}
		return map[string]any{"VRMC_materials_mtoon": m}
	}
	w.d.Materials = []any{
		matSkin: material{Name: "Skin", PBRMetallicRoughness: pbr([4]float32{1, 1, 1, 1}, 0),
			Extensions: ext(mtoon([3]float32{0.85, 0.55, 0.5}, 0, [3]float32{0.3, 0.2, 0.2}))},
		matDress: material{Name: "Dress", PBRMetallicRoughness: pbr([4]float32{1, 1, 1, 1}, 1),
			Extensions: ext(mtoon([3]float32{0.35, 0.3, 0.6}, 0.004, [3]float32{0.2, 0.2, 0.4}))},
		matHair: material{Name: "Hair", PBRMetallicRoughness: pbr([4]float32{0.25, 0.12, 0.08, 1}, -1),
			Extensions: ext(mtoon([3]float32{0.12, 0.05, 0.05}, 0.003, [3]float32{0.3, 0.2, 0.1}))},
		matMouth: material{Name: "Mouth", PBRMetallicRoughness: pbr([4]float32{0.55, 0.08, 0.1, 1}, -1),
			Extensions: ext(mtoon([3]float32{0.35, 0.03, 0.05}, 0, [3]float32{}))},
		matEyeWhite: material{Name: "EyeWhite", PBRMetallicRoughness: pbr([4]float32{0.95, 0.95, 0.95, 1}, -1),
			Extensions: ext(mtoon([3]float32{0.8, 0.8, 0.85}, 0, [3]float32{}))},
		matPupil: material{Name: "Pupil", PBRMetallicRoughness: pbr([4]float32{0.05, 0.08, 0.25, 1}, -1),
			Extensions: ext(mtoon([3]float32{0.02, 0.03, 0.1}, 0, [3]float32{}))},
	}
}

func pngOf(im image.Image) []byte {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, im); err != nil {
		panic("vrmtest: " + err.Error()) // encoding to memory does not fail
	}
	return b.Bytes()
}

// skinTexture is a warm skin tone with faint freckle dots: texturing
// shows without spoiling the look.
func skinTexture(n int) *image.NRGBA {
	im := image.NewNRGBA(image.Rect(0, 0, n, n))
	cell := max(n/16, 2)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := color.NRGBA{255, 224, 205, 255}
			dx, dy := x%cell-cell/2, y%cell-cell/2
			if dx*dx+dy*dy < cell*cell/40 {
				c = color.NRGBA{240, 196, 176, 255}
			}
			im.SetNRGBA(x, y, c)
		}
	}
	return im
}

// dressTexture is a checked pattern with a stripe: plainly a texture.
func dressTexture(n int) *image.NRGBA {
	im := image.NewNRGBA(image.Rect(0, 0, n, n))
	cell := max(n/8, 1)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := color.NRGBA{90, 110, 200, 255}
			if (x/cell+y/cell)%2 == 1 {
				c = color.NRGBA{150, 170, 235, 255}
			}
			if y%cell < max(cell/10, 1) {
				c = color.NRGBA{250, 245, 240, 255}
			}
			im.SetNRGBA(x, y, c)
		}
	}
	return im
}

// addGrain adds a faint deterministic noise (±1 a channel, xorshift) so
// that the PNG no longer compresses to almost nothing: a file the size
// of a real avatar's, whose textures cost what real ones cost to decode.
func addGrain(im *image.NRGBA, seed uint32) {
	x := seed*2654435761 + 1
	for i := 0; i < len(im.Pix); i += 4 {
		for k := 0; k < 3; k++ {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			v := int(im.Pix[i+k]) + int(x%3) - 1
			im.Pix[i+k] = uint8(min(max(v, 0), 255))
		}
	}
}
