package raster

import (
	"context"
	"math"
	"slices"
)

// svert is a vertex after projection: its position in samples (x right,
// y down), 1/w for depth and perspective correction, and the attributes
// the shading interpolates.
type svert struct {
	x, y float64
	iw   float32
	pos  Vec3
	n    Vec3
	uv   Vec2
	col  Vec4
}

// tri is a triangle ready to rasterise. Its edge functions are
// normalised: at a sample (x, y), ea[k]*x + eb[k]*y + ec[k] is the
// barycentric weight of vertex k, positive inside.
type tri struct {
	ea, eb, ec     [3]float64
	iw             [3]float32
	v              [3]int32
	mat            int32
	flags          uint8
	x0, y0, x1, y1 int32 // inclusive bounds in samples
	depth          float32
}

const (
	flagFlip     uint8 = 1 << iota // the back of a double-sided face: normal flipped
	flagOutline                    // a face of the outline's inverted hull
	flagTopLeft0                   // edge k owns the samples exactly on it (the fill rule)
	flagTopLeft1
	flagTopLeft2
)

// clipv is a vertex in clip space, kept while a mesh's faces are made.
type clipv struct {
	cx, cy, w float64
	ok        bool // finite
}

// builder turns a scene's meshes into projected vertices and triangles.
type builder struct {
	v      *view
	verts  []svert
	tris   []tri
	mats   []*pmat
	clip   []clipv // of the mesh being built
	ct     *colorTables
	sw, sh int32 // target size in samples
}

func (b *builder) build(ctx context.Context, s *Scene) error {
	b.reserve(s)
	for i := range s.Meshes {
		m := &s.Meshes[i]
		if len(m.Indices) == 0 {
			continue
		}
		pm := prepareMaterial(m.Material, b.ct)
		b.mats = append(b.mats, pm)
		mi := int32(len(b.mats) - 1)
		pos := make([]v3, len(m.Positions))
		for k, p := range m.Positions {
			pos[k] = to64(p)
		}
		normals := meshNormals(m, pos)
		if err := b.addFaces(ctx, m, pos, normals, mi, false); err != nil {
			return err
		}
		if t := m.Material; t != nil && t.Toon != nil && t.Toon.OutlineMode != OutlineNone && t.Toon.OutlineWidth > 0 {
			hull := b.outlineHull(m, pm, pos, normals)
			if err := b.addFaces(ctx, m, hull, normals, mi, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// reserve sizes the vertex and triangle lists for the scene (an outlined
// mesh counts twice), so that growing them does not copy them over and
// over: for a large model they are most of what a picture allocates.
func (b *builder) reserve(s *Scene) {
	nv, nt := 0, 0
	for i := range s.Meshes {
		m := &s.Meshes[i]
		k := 1
		if t := m.Material; t != nil && t.Toon != nil && t.Toon.OutlineMode != OutlineNone && t.Toon.OutlineWidth > 0 {
			k = 2
		}
		nv += k * len(m.Positions)
		nt += k * len(m.Indices) / 3
	}
	// Faces cut by the near plane add a few vertices and triangles.
	b.verts = make([]svert, 0, nv+nv/64+16)
	b.tris = make([]tri, 0, nt+nt/64+16)
}

// meshNormals returns the mesh's unit normals, or, for a mesh without
// any, the area-weighted normals of the faces around each vertex.
func meshNormals(m *Mesh, pos []v3) []Vec3 {
	out := make([]Vec3, len(pos))
	if len(m.Normals) == len(pos) {
		for i, n := range m.Normals {
			out[i] = norm3(n)
		}
		return out
	}
	acc := make([]v3, len(pos))
	for f := 0; f+2 < len(m.Indices); f += 3 {
		i0, i1, i2 := m.Indices[f], m.Indices[f+1], m.Indices[f+2]
		n := pos[i1].sub(pos[i0]).cross(pos[i2].sub(pos[i0]))
		if !finite3(n) {
			continue
		}
		acc[i0], acc[i1], acc[i2] = acc[i0].add(n), acc[i1].add(n), acc[i2].add(n)
	}
	for i, a := range acc {
		if u, ok := a.norm(); ok {
			out[i] = Vec3{float32(u[0]), float32(u[1]), float32(u[2])}
		}
	}
	return out
}

// outlineHull pushes the mesh's vertices out along their normals by the
// outline's width: metres in world mode; in screen mode a fraction of the
// picture's height, turned into metres at each vertex's distance.
func (b *builder) outlineHull(m *Mesh, pm *pmat, pos []v3, normals []Vec3) []v3 {
	t := m.Material.Toon
	out := make([]v3, len(pos))
	for i, p := range pos {
		w := float64(t.OutlineWidth)
		if pm.outlineTex != nil && len(m.UVs) == len(pos) {
			u, v := pm.uv(m.UVs[i])
			w *= float64(pm.outlineTex.sample(u, v)[1])
		}
		if t.OutlineMode == OutlineScreen {
			_, _, d := b.v.clip(p)
			w *= 2 * max(d, b.v.near) * b.v.tanY
		}
		out[i] = p.add(to64(normals[i]).scale(w))
	}
	return out
}

// addFaces projects positions (the mesh's own, or its outline hull's) and
// makes the mesh's faces from them.
func (b *builder) addFaces(ctx context.Context, m *Mesh, pos []v3, normals []Vec3, mi int32, outline bool) error {
	base := int32(len(b.verts))
	b.clip = b.clip[:0]
	for i, p := range pos {
		cv := clipv{}
		if finite3(p) {
			cv.cx, cv.cy, cv.w = b.v.clip(p)
			cv.ok = finite(cv.cx) && finite(cv.cy) && finite(cv.w)
		}
		b.clip = append(b.clip, cv)
		sv := svert{n: normals[i], col: Vec4{1, 1, 1, 1}}
		sv.pos = Vec3{float32(p[0]), float32(p[1]), float32(p[2])}
		if len(m.UVs) == len(pos) {
			sv.uv = m.UVs[i]
		}
		if len(m.Colors) == len(pos) {
			c := m.Colors[i]
			sv.col = Vec4{clean(c[0]), clean(c[1]), clean(c[2]), clean(c[3])}
		}
		if cv.ok && cv.w >= b.v.near {
			sv.x, sv.y = b.v.screen(cv.cx, cv.cy, cv.w)
			sv.iw = float32(1 / cv.w)
		}
		b.verts = append(b.verts, sv)
	}
	for f := 0; f+2 < len(m.Indices); f += 3 {
		if f%(3*4096) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		idx := [3]int32{int32(m.Indices[f]), int32(m.Indices[f+1]), int32(m.Indices[f+2])}
		b.addFace(base, idx, mi, outline)
	}
	return nil
}

// addFace clips one face against the near plane (w ≥ near) and emits the
// triangles left of it.
func (b *builder) addFace(base int32, idx [3]int32, mi int32, outline bool) {
	in := 0
	for _, i := range idx {
		c := b.clip[i]
		if !c.ok {
			return
		}
		if c.w >= b.v.near {
			in++
		}
	}
	switch in {
	case 0:
		return
	case 3:
		b.emit([3]int32{base + idx[0], base + idx[1], base + idx[2]}, mi, outline)
		return
	}
	// Sutherland–Hodgman against one plane: at most four vertices.
	var poly [4]int32
	n := 0
	for k := range 3 {
		a, c := idx[k], idx[(k+1)%3]
		ca, cc := b.clip[a], b.clip[c]
		ain, cin := ca.w >= b.v.near, cc.w >= b.v.near
		if ain {
			poly[n] = base + a
			n++
		}
		if ain != cin {
			t := (ca.w - b.v.near) / (ca.w - cc.w)
			poly[n] = b.lerpVertex(base+a, base+c, ca, cc, t)
			n++
		}
	}
	for k := 1; k+1 < n; k++ {
		b.emit([3]int32{poly[0], poly[k], poly[k+1]}, mi, outline)
	}
}

// lerpVertex makes the vertex where an edge crosses the near plane.
func (b *builder) lerpVertex(ia, ic int32, ca, cc clipv, t float64) int32 {
	a, c := &b.verts[ia], &b.verts[ic]
	tf := float32(t)
	var v svert
	for k := range 3 {
		v.pos[k] = a.pos[k] + (c.pos[k]-a.pos[k])*tf
		v.n[k] = a.n[k] + (c.n[k]-a.n[k])*tf
	}
	for k := range 2 {
		v.uv[k] = a.uv[k] + (c.uv[k]-a.uv[k])*tf
	}
	for k := range 4 {
		v.col[k] = a.col[k] + (c.col[k]-a.col[k])*tf
	}
	cx, cy := ca.cx+(cc.cx-ca.cx)*t, ca.cy+(cc.cy-ca.cy)*t
	v.x, v.y = b.v.screen(cx, cy, b.v.near)
	v.iw = float32(1 / b.v.near)
	b.verts = append(b.verts, v)
	return int32(len(b.verts) - 1)
}

// emit culls a projected triangle by its facing and sets up its edges.
// A front face is counter-clockwise in the picture with y up, so
// clockwise (negative area) with y down.
func (b *builder) emit(v [3]int32, mi int32, outline bool) {
	p0, p1, p2 := &b.verts[v[0]], &b.verts[v[1]], &b.verts[v[2]]
	area := (p1.x-p0.x)*(p2.y-p0.y) - (p2.x-p0.x)*(p1.y-p0.y)
	if !(area != 0) || !finite(area) {
		return
	}
	back := area > 0
	var flags uint8
	switch {
	case outline:
		// The inverted hull: only its faces turned away are drawn.
		if !back {
			return
		}
		flags |= flagOutline
	case back:
		if !b.mats[mi].double {
			return
		}
		flags |= flagFlip
	}
	t := tri{v: v, mat: mi, flags: flags}
	ps := [3]*svert{p0, p1, p2}
	minX, maxX := math.Min(p0.x, math.Min(p1.x, p2.x)), math.Max(p0.x, math.Max(p1.x, p2.x))
	minY, maxY := math.Min(p0.y, math.Min(p1.y, p2.y)), math.Max(p0.y, math.Max(p1.y, p2.y))
	// Samples sit at integer + 0.5.
	x0, x1 := math.Ceil(minX-0.5), math.Floor(maxX-0.5)
	y0, y1 := math.Ceil(minY-0.5), math.Floor(maxY-0.5)
	x0, y0 = math.Max(x0, 0), math.Max(y0, 0)
	x1, y1 = math.Min(x1, float64(b.sw-1)), math.Min(y1, float64(b.sh-1))
	if !(x0 <= x1 && y0 <= y1) {
		return
	}
	t.x0, t.y0, t.x1, t.y1 = int32(x0), int32(y0), int32(x1), int32(y1)
	for k := range 3 {
		q, r := ps[(k+1)%3], ps[(k+2)%3]
		dx, dy := r.x-q.x, r.y-q.y
		t.ea[k] = -dy / area
		t.eb[k] = dx / area
		t.ec[k] = (dy*q.x - dx*q.y) / area
		if t.ea[k] > 0 || (t.ea[k] == 0 && t.eb[k] > 0) {
			t.flags |= flagTopLeft0 << k
		}
		t.iw[k] = ps[k].iw
	}
	t.depth = (1/p0.iw + 1/p1.iw + 1/p2.iw) / 3
	b.tris = append(b.tris, t)
}

// order splits the triangles into the opaque ones (opaque and masked, in
// the scene's order) and the blended ones, sorted by their material's
// Order and then back to front; equal keys keep the scene's order, so the
// result does not depend on the sort's internals.
func (b *builder) order() (opaque, blend []int32) {
	for i := range b.tris {
		if b.mats[b.tris[i].mat].alpha == AlphaBlend {
			blend = append(blend, int32(i))
		} else {
			opaque = append(opaque, int32(i))
		}
	}
	slices.SortStableFunc(blend, func(x, y int32) int {
		tx, ty := &b.tris[x], &b.tris[y]
		ox, oy := b.mats[tx.mat].order, b.mats[ty.mat].order
		switch {
		case ox != oy:
			return cmpInt(ox, oy)
		case tx.depth > ty.depth:
			return -1
		case tx.depth < ty.depth:
			return 1
		}
		return 0
	})
	return opaque, blend
}

func cmpInt(a, b int) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}
