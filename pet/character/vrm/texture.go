package vrm

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/jpeg" // JPEG textures
	_ "image/png"  // PNG textures
	"strings"

	"github.com/qmuntal/gltf"
)

const maxTextures = 4096

// readTextures keeps each texture's image encoded (its bytes point into
// the file's buffer): a 30 MB model with 4096² textures is not decoded
// until a texture is used.
func (c *container) readTextures(m *Model) error {
	doc := c.doc
	if len(doc.Textures) > maxTextures || len(doc.Images) > maxTextures {
		return fmt.Errorf("vrm: over %d textures", maxTextures)
	}
	m.Textures = make([]Texture, len(doc.Textures))
	for i, t := range doc.Textures {
		if t == nil {
			return fmt.Errorf("vrm: texture %d is null", i)
		}
		tex := &m.Textures[i]
		tex.Sampler = Sampler{WrapS: 10497, WrapT: 10497}
		if t.Sampler != nil {
			if *t.Sampler < 0 || *t.Sampler >= len(doc.Samplers) || doc.Samplers[*t.Sampler] == nil {
				return fmt.Errorf("vrm: texture %d: sampler %d out of range", i, *t.Sampler)
			}
			tex.Sampler = samplerOf(doc.Samplers[*t.Sampler])
		}
		if t.Source == nil {
			continue // e.g. only an extension's source (KTX2): nothing to decode
		}
		var err error
		tex.MIME, tex.Data, err = c.image(*t.Source)
		if err != nil {
			return fmt.Errorf("vrm: texture %d: %w", i, trimPrefix(err))
		}
	}
	return nil
}

// samplerOf maps qmuntal/gltf's sampler enums back to glTF's numbers.
func samplerOf(s *gltf.Sampler) Sampler {
	wrap := func(w gltf.WrappingMode) int {
		switch w {
		case gltf.WrapClampToEdge:
			return 33071
		case gltf.WrapMirroredRepeat:
			return 33648
		}
		return 10497
	}
	out := Sampler{WrapS: wrap(s.WrapS), WrapT: wrap(s.WrapT)}
	switch s.MagFilter {
	case gltf.MagNearest:
		out.MagFilter = 9728
	case gltf.MagLinear:
		out.MagFilter = 9729
	}
	return out
}

// image returns image i's MIME type and encoded bytes.
func (c *container) image(i int) (string, []byte, error) {
	if i < 0 || i >= len(c.doc.Images) || c.doc.Images[i] == nil {
		return "", nil, fmt.Errorf("vrm: image %d out of range", i)
	}
	im := c.doc.Images[i]
	var data []byte
	switch {
	case im.BufferView != nil:
		v, _, err := c.view(*im.BufferView)
		if err != nil {
			return "", nil, fmt.Errorf("vrm: image %d: %w", i, trimPrefix(err))
		}
		data = v
	case strings.HasPrefix(im.URI, "data:"):
		comma := strings.IndexByte(im.URI, ',')
		if comma < 0 || !strings.HasSuffix(im.URI[:comma], ";base64") {
			return "", nil, fmt.Errorf("vrm: image %d: unsupported data URI", i)
		}
		d, err := base64.StdEncoding.DecodeString(im.URI[comma+1:])
		if err != nil {
			return "", nil, fmt.Errorf("vrm: image %d: bad base64: %w", i, err)
		}
		data = d
	case im.URI != "":
		return "", nil, fmt.Errorf("vrm: image %d refers to an external file %q", i, im.URI)
	}
	mime := im.MimeType
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		mime = "image/png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		mime = "image/jpeg"
	}
	return mime, data, nil
}

func decodeTexture(t Texture) (image.Image, error) {
	switch t.MIME {
	case "image/png", "image/jpeg":
	default:
		return nil, fmt.Errorf("vrm: texture: unsupported image type %q (PNG and JPEG are)", t.MIME)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(t.Data))
	if err != nil {
		return nil, fmt.Errorf("vrm: texture: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxTextureSide || cfg.Height > MaxTextureSide {
		return nil, fmt.Errorf("vrm: texture too large: %d×%d pixels, at most %d a side",
			cfg.Width, cfg.Height, MaxTextureSide)
	}
	img, _, err := image.Decode(bytes.NewReader(t.Data))
	if err != nil {
		return nil, fmt.Errorf("vrm: texture: %w", err)
	}
	return img, nil
}
