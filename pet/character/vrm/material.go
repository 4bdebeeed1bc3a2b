package vrm

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

const maxMaterials = 65536

// textureInfo is a glTF textureInfo as the VRM extensions write it.
type textureInfo struct {
	Index      *int            `json:"index"`
	TexCoord   int             `json:"texCoord"`
	Extensions gltf.Extensions `json:"extensions"`
}

// texTransform is KHR_texture_transform (rotation is not kept).
type texTransform struct {
	Offset *[2]float32 `json:"offset"`
	Scale  *[2]float32 `json:"scale"`
}

// mtoon1 is VRMC_materials_mtoon (VRM 1.0); pointers tell an absent
// value from a zero, since the defaults are not zero.
type mtoon1 struct {
	TransparentWithZWrite       bool         `json:"transparentWithZWrite"`
	RenderQueueOffsetNumber     int          `json:"renderQueueOffsetNumber"`
	ShadeColorFactor            *[3]float32  `json:"shadeColorFactor"`
	ShadeMultiplyTexture        *textureInfo `json:"shadeMultiplyTexture"`
	ShadingShiftFactor          *float32     `json:"shadingShiftFactor"`
	ShadingToonyFactor          *float32     `json:"shadingToonyFactor"`
	ParametricRimColorFactor    *[3]float32  `json:"parametricRimColorFactor"`
	RimMultiplyTexture          *textureInfo `json:"rimMultiplyTexture"`
	RimLightingMixFactor        *float32     `json:"rimLightingMixFactor"`
	ParametricRimFresnelPower   *float32     `json:"parametricRimFresnelPowerFactor"`
	ParametricRimLiftFactor     *float32     `json:"parametricRimLiftFactor"`
	OutlineWidthMode            string       `json:"outlineWidthMode"`
	OutlineWidthFactor          *float32     `json:"outlineWidthFactor"`
	OutlineWidthMultiplyTexture *textureInfo `json:"outlineWidthMultiplyTexture"`
	OutlineColorFactor          *[3]float32  `json:"outlineColorFactor"`
	OutlineLightingMixFactor    *float32     `json:"outlineLightingMixFactor"`
}

func orF(p *float32, d float32) float32 {
	if p == nil {
		return d
	}
	return *p
}

func or3(p *[3]float32, d Vec3) Vec3 {
	if p == nil {
		return d
	}
	return Vec3(*p)
}

// texRef checks a texture reference against the model's textures and
// reads its KHR_texture_transform.
func texRef(ti *textureInfo, textures int) (TextureRef, error) {
	ref := TextureRef{Index: -1, Scale: Vec2{1, 1}}
	if ti == nil || ti.Index == nil {
		return ref, nil
	}
	if *ti.Index < 0 || *ti.Index >= textures {
		return ref, fmt.Errorf("vrm: texture %d out of range", *ti.Index)
	}
	ref.Index, ref.TexCoord = *ti.Index, ti.TexCoord
	var xf texTransform
	if _, err := decodeExtension(ti.Extensions, extTexXf, &xf); err != nil {
		return ref, err
	}
	if xf.Offset != nil {
		ref.Offset = Vec2(*xf.Offset)
	}
	if xf.Scale != nil {
		ref.Scale = Vec2(*xf.Scale)
	}
	return ref, nil
}

// gltfTexRef converts qmuntal/gltf's textureInfo.
func gltfTexRef(ti *gltf.TextureInfo, textures int) (TextureRef, error) {
	if ti == nil {
		return texRef(nil, textures)
	}
	idx := ti.Index
	return texRef(&textureInfo{Index: &idx, TexCoord: ti.TexCoord, Extensions: ti.Extensions}, textures)
}

func (c *container) readMaterials(m *Model) error {
	if len(c.doc.Materials) > maxMaterials {
		return fmt.Errorf("vrm: %d materials, at most %d", len(c.doc.Materials), maxMaterials)
	}
	m.Materials = make([]Material, len(c.doc.Materials))
	for i, gm := range c.doc.Materials {
		if gm == nil {
			return fmt.Errorf("vrm: material %d is null", i)
		}
		mat, err := readMaterial(gm, len(m.Textures))
		if err != nil {
			return fmt.Errorf("vrm: material %d: %w", i, trimPrefix(err))
		}
		m.Materials[i] = mat
	}
	return nil
}

func readMaterial(gm *gltf.Material, textures int) (Material, error) {
	mat := Material{
		Name:        gm.Name,
		BaseColor:   Vec4{1, 1, 1, 1},
		AlphaCutoff: float32(gm.AlphaCutoffOrDefault()),
		DoubleSided: gm.DoubleSided,
		Emissive:    vec3f(gm.EmissiveFactor),
	}
	switch gm.AlphaMode {
	case gltf.AlphaMask:
		mat.AlphaMode = AlphaMask
	case gltf.AlphaBlend:
		mat.AlphaMode = AlphaBlend
	}
	var err error
	if pbr := gm.PBRMetallicRoughness; pbr != nil {
		bc := pbr.BaseColorFactorOrDefault()
		mat.BaseColor = Vec4{float32(bc[0]), float32(bc[1]), float32(bc[2]), float32(bc[3])}
		if mat.BaseTexture, err = gltfTexRef(pbr.BaseColorTexture, textures); err != nil {
			return mat, err
		}
	} else {
		mat.BaseTexture, _ = texRef(nil, textures)
	}
	if mat.EmissiveTexture, err = gltfTexRef(gm.EmissiveTexture, textures); err != nil {
		return mat, err
	}
	_, mat.Unlit = gm.Extensions[extUnlit]
	var strength struct {
		EmissiveStrength *float32 `json:"emissiveStrength"`
	}
	if _, err := decodeExtension(gm.Extensions, "KHR_materials_emissive_strength", &strength); err != nil {
		return mat, err
	}
	if k := strength.EmissiveStrength; k != nil && *k >= 0 && *k < 1e6 {
		mat.Emissive = Vec3{mat.Emissive[0] * *k, mat.Emissive[1] * *k, mat.Emissive[2] * *k}
	}
	var mt mtoon1
	ok, err := decodeExtension(gm.Extensions, extMToon, &mt)
	if err != nil {
		return mat, err
	}
	if ok {
		if mat.Toon, err = mt.toon(textures); err != nil {
			return mat, err
		}
	}
	return mat, nil
}

// toon applies VRM 1.0's MToon defaults (VRMC_materials_mtoon's schema).
func (mt *mtoon1) toon(textures int) (*Toon, error) {
	t := &Toon{
		ShadeColor:         or3(mt.ShadeColorFactor, Vec3{}),
		ShadingShift:       orF(mt.ShadingShiftFactor, 0),
		ShadingToony:       orF(mt.ShadingToonyFactor, 0.9),
		RimColor:           or3(mt.ParametricRimColorFactor, Vec3{}),
		RimFresnelPower:    orF(mt.ParametricRimFresnelPower, 5),
		RimLift:            orF(mt.ParametricRimLiftFactor, 0),
		RimLightingMix:     orF(mt.RimLightingMixFactor, 1),
		OutlineWidth:       orF(mt.OutlineWidthFactor, 0),
		OutlineColor:       or3(mt.OutlineColorFactor, Vec3{}),
		OutlineLightingMix: orF(mt.OutlineLightingMixFactor, 1),
		RenderQueueOffset:  mt.RenderQueueOffsetNumber,
		TransparentZWrite:  mt.TransparentWithZWrite,
	}
	switch mt.OutlineWidthMode {
	case "worldCoordinates":
		t.OutlineMode = OutlineWorld
	case "screenCoordinates":
		t.OutlineMode = OutlineScreen
	}
	var err error
	if t.ShadeTexture, err = texRef(mt.ShadeMultiplyTexture, textures); err != nil {
		return nil, err
	}
	if t.RimTexture, err = texRef(mt.RimMultiplyTexture, textures); err != nil {
		return nil, err
	}
	if t.OutlineWidthTexture, err = texRef(mt.OutlineWidthMultiplyTexture, textures); err != nil {
		return nil, err
	}
	return t, nil
}
