package vrm

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

const maxMeshes = 65536

// readMeshes reads every mesh's primitives as triangle lists, checking
// the vertex, index and morph target counts against the limits before
// reading their data.
func (c *container) readMeshes(m *Model) error {
	doc := c.doc
	if len(doc.Meshes) > maxMeshes {
		return fmt.Errorf("vrm: %d meshes, at most %d", len(doc.Meshes), maxMeshes)
	}
	m.Meshes = make([]Mesh, len(doc.Meshes))
	var vertices, indices, morphVerts int64
	for mi, gm := range doc.Meshes {
		if gm == nil {
			return fmt.Errorf("vrm: mesh %d is null", mi)
		}
		mesh := &m.Meshes[mi]
		mesh.Name = gm.Name
		for _, w := range gm.Weights {
			mesh.DefaultWeights = append(mesh.DefaultWeights, float32(w))
		}
		mesh.TargetNames = targetNames(gm)
		for pi, gp := range gm.Primitives {
			if gp == nil {
				return fmt.Errorf("vrm: mesh %d primitive %d is null", mi, pi)
			}
			switch gp.Mode {
			case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
			default:
				// Points and lines have no surface to draw; skipped.
				continue
			}
			pos, ok := gp.Attributes[gltf.POSITION]
			if !ok {
				return fmt.Errorf("vrm: mesh %d primitive %d has no POSITION", mi, pi)
			}
			if pos < 0 || pos >= len(doc.Accessors) || doc.Accessors[pos] == nil {
				return fmt.Errorf("vrm: mesh %d primitive %d: accessor %d out of range", mi, pi, pos)
			}
			nv := int64(doc.Accessors[pos].Count)
			vertices += nv
			if vertices > MaxVertices {
				return fmt.Errorf("vrm: over %d vertices", MaxVertices)
			}
			if len(gp.Targets) > MaxMorphTargets {
				return fmt.Errorf("vrm: mesh %d primitive %d: %d morph targets, at most %d",
					mi, pi, len(gp.Targets), MaxMorphTargets)
			}
			morphVerts += nv * int64(len(gp.Targets))
			if morphVerts > MaxMorphVertices {
				return fmt.Errorf("vrm: morph targets over %d vertices in all", MaxMorphVertices)
			}
			p, err := c.readPrimitive(gp, len(m.Materials))
			if err != nil {
				return fmt.Errorf("vrm: mesh %d primitive %d: %w", mi, pi, trimPrefix(err))
			}
			indices += int64(len(p.Indices))
			if indices > MaxIndices {
				return fmt.Errorf("vrm: over %d indices", MaxIndices)
			}
			mesh.Primitives = append(mesh.Primitives, p)
		}
	}
	return nil
}

// targetNames reads the morph target names exporters put in the mesh's
// extras.targetNames (glTF has no field of its own for them).
func targetNames(gm *gltf.Mesh) []string {
	ex, ok := gm.Extras.(map[string]any)
	if !ok {
		return nil
	}
	list, ok := ex["targetNames"].([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}

// readPrimitive reads one primitive: its material, its vertex attributes,
// its skin weights, its triangles and its morph targets, each checked
// against the vertex count the positions give.
func (c *container) readPrimitive(gp *gltf.Primitive, materials int) (Primitive, error) {
	p := Primitive{Material: -1}
	if gp.Material != nil {
		if *gp.Material < 0 || *gp.Material >= materials {
			return p, fmt.Errorf("vrm: material %d out of range", *gp.Material)
		}
		p.Material = *gp.Material
	}
	f, err := c.floats(gp.Attributes[gltf.POSITION], 3, false)
	if err != nil {
		return p, fmt.Errorf("vrm: POSITION: %w", trimPrefix(err))
	}
	p.Positions = vec3s(f)
	n := len(p.Positions)
	if a, ok := gp.Attributes[gltf.NORMAL]; ok {
		if p.Normals, err = c.vec3Attr(a, n, "NORMAL"); err != nil {
			return p, err
		}
	}
	if a, ok := gp.Attributes[gltf.TEXCOORD_0]; ok {
		f, err := c.floats(a, 2, true)
		if err != nil {
			return p, fmt.Errorf("vrm: TEXCOORD_0: %w", trimPrefix(err))
		}
		if p.UVs = vec2s(f); len(p.UVs) != n {
			return p, fmt.Errorf("vrm: TEXCOORD_0 has %d values for %d vertices", len(p.UVs), n)
		}
	}
	if a, ok := gp.Attributes[gltf.COLOR_0]; ok {
		if p.Colors, err = c.colors(a, n); err != nil {
			return p, err
		}
	}
	if err := c.readSkinWeights(gp, n, &p); err != nil {
		return p, err
	}
	idx, err := c.readIndices(gp, n)
	if err != nil {
		return p, err
	}
	p.Indices = triangulate(gp.Mode, idx)
	if p.Targets, err = c.readMorphTargets(gp, n); err != nil {
		return p, err
	}
	return p, nil
}

// readSkinWeights reads the joints and weights of the n vertices into p,
// when the primitive has both; a skin needs the two together.
func (c *container) readSkinWeights(gp *gltf.Primitive, n int, p *Primitive) error {
	ja, hasJ := gp.Attributes[gltf.JOINTS_0]
	wa, hasW := gp.Attributes[gltf.WEIGHTS_0]
	if !hasJ || !hasW {
		return nil
	}
	j, err := c.uints(ja, 4)
	if err != nil {
		return fmt.Errorf("vrm: JOINTS_0: %w", trimPrefix(err))
	}
	w, err := c.floats(wa, 4, true)
	if err != nil {
		return fmt.Errorf("vrm: WEIGHTS_0: %w", trimPrefix(err))
	}
	if len(j) != 4*n || len(w) != 4*n {
		return fmt.Errorf("vrm: JOINTS_0/WEIGHTS_0 do not match the %d vertices", n)
	}
	p.Joints = make([][4]uint16, n)
	for i := range p.Joints {
		for k := 0; k < 4; k++ {
			if j[4*i+k] > 0xffff {
				return fmt.Errorf("vrm: joint index %d out of range", j[4*i+k])
			}
			p.Joints[i][k] = uint16(j[4*i+k])
		}
	}
	p.Weights = vec4s(w)
	return nil
}

// readIndices reads the primitive's vertex indices, each within its n
// vertices; without indices, the vertices in order (charged against the
// budget, as they are made here).
func (c *container) readIndices(gp *gltf.Primitive, n int) ([]uint32, error) {
	if gp.Indices != nil {
		idx, err := c.uints(*gp.Indices, 1)
		if err != nil {
			return nil, fmt.Errorf("vrm: indices: %w", trimPrefix(err))
		}
		for _, v := range idx {
			if int(v) >= n {
				return nil, fmt.Errorf("vrm: index %d out of range of %d vertices", v, n)
			}
		}
		return idx, nil
	}
	if err := c.charge(n); err != nil {
		return nil, err
	}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	return idx, nil
}

// readMorphTargets reads each morph target's position and normal offsets
// for the n vertices; a target without positions moves nothing.
func (c *container) readMorphTargets(gp *gltf.Primitive, n int) ([]MorphTarget, error) {
	var targets []MorphTarget
	var err error
	for ti, t := range gp.Targets {
		var mt MorphTarget
		if a, ok := t[gltf.POSITION]; ok {
			if mt.Positions, err = c.vec3Attr(a, n, fmt.Sprintf("target %d POSITION", ti)); err != nil {
				return nil, err
			}
		} else {
			mt.Positions = make([]Vec3, n)
		}
		if a, ok := t[gltf.NORMAL]; ok {
			if mt.Normals, err = c.vec3Attr(a, n, fmt.Sprintf("target %d NORMAL", ti)); err != nil {
				return nil, err
			}
		}
		targets = append(targets, mt)
	}
	return targets, nil
}

func (c *container) vec3Attr(a, n int, what string) ([]Vec3, error) {
	f, err := c.floats(a, 3, false)
	if err != nil {
		return nil, fmt.Errorf("vrm: %s: %w", what, trimPrefix(err))
	}
	if len(f) != 3*n {
		return nil, fmt.Errorf("vrm: %s has %d values for %d vertices", what, len(f)/3, n)
	}
	return vec3s(f), nil
}

func (c *container) colors(a, n int) ([]Vec4, error) {
	ai, err := c.accessor(a)
	if err != nil {
		return nil, fmt.Errorf("vrm: COLOR_0: %w", trimPrefix(err))
	}
	comps := ai.comps
	if comps != 3 && comps != 4 {
		return nil, fmt.Errorf("vrm: COLOR_0 has %d components", comps)
	}
	f, err := c.floats(a, comps, true)
	if err != nil {
		return nil, fmt.Errorf("vrm: COLOR_0: %w", trimPrefix(err))
	}
	if len(f) != comps*n {
		return nil, fmt.Errorf("vrm: COLOR_0 has %d values for %d vertices", len(f)/comps, n)
	}
	out := make([]Vec4, n)
	for i := range out {
		out[i] = Vec4{f[comps*i], f[comps*i+1], f[comps*i+2], 1}
		if comps == 4 {
			out[i][3] = f[comps*i+3]
		}
	}
	return out, nil
}

// triangulate turns strips and fans into a triangle list (glTF 2.0
// §3.7.2.1's vertex orders) and drops a list's incomplete last triangle.
func triangulate(mode gltf.PrimitiveMode, idx []uint32) []uint32 {
	switch mode {
	case gltf.PrimitiveTriangleStrip:
		if len(idx) < 3 {
			return nil
		}
		out := make([]uint32, 0, 3*(len(idx)-2))
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				out = append(out, idx[i], idx[i+1], idx[i+2])
			} else {
				out = append(out, idx[i+1], idx[i], idx[i+2])
			}
		}
		return out
	case gltf.PrimitiveTriangleFan:
		if len(idx) < 3 {
			return nil
		}
		out := make([]uint32, 0, 3*(len(idx)-2))
		for i := 1; i+1 < len(idx); i++ {
			out = append(out, idx[i], idx[i+1], idx[0])
		}
		return out
	}
	return idx[:len(idx)/3*3]
}

// trimPrefix drops the "vrm: " of an inner error, so that a wrapped
// message says it once.
func trimPrefix(err error) error { return prefixless{err} }

type prefixless struct{ err error }

func (p prefixless) Error() string {
	s := p.err.Error()
	if len(s) > 5 && s[:5] == "vrm: " {
		return s[5:]
	}
	return s
}
func (p prefixless) Unwrap() error { return p.err }
