package vrmtest

import "math"

type vec3 = [3]float32

// prim is a primitive being built: vertices, their skinning and indices.
type prim struct {
	pos, nrm []vec3
	uv       [][2]float32
	joints   [][4]uint8
	weights  [][4]float32
	idx      []uint32
}

// binding says which joints a vertex at p follows, and how much.
type binding func(p vec3) ([4]uint8, [4]float32)

// rigid binds every vertex to one joint.
func rigid(j uint8) binding {
	return func(vec3) ([4]uint8, [4]float32) { return [4]uint8{j}, [4]float32{1} }
}

// blendAlong binds a limb to joint a, blending into joint b over the last
// part of the limb towards end, so that elbows and knees bend smoothly.
func blendAlong(a, b uint8, start, end vec3) binding {
	return func(p vec3) ([4]uint8, [4]float32) {
		var d, l float32
		for k := 0; k < 3; k++ {
			d += (p[k] - start[k]) * (end[k] - start[k])
			l += (end[k] - start[k]) * (end[k] - start[k])
		}
		t := d / l
		w := smooth((t-0.8)/0.3) * 0.5
		return [4]uint8{a, b}, [4]float32{1 - w, w}
	}
}

func smooth(x float32) float32 {
	x = min(max(x, 0), 1)
	return x * x * (3 - 2*x)
}

// ellipsoid adds an axis-aligned ellipsoid of lat rings and lon segments,
// its texture coordinates spanning uv (u0, v0, u1, v1) of the texture.
func (p *prim) ellipsoid(c, r vec3, lat, lon int, bind binding, uv [4]float32) {
	base := uint32(len(p.pos))
	for i := 0; i <= lat; i++ {
		th := math.Pi * float64(i) / float64(lat)
		for j := 0; j <= lon; j++ {
			ph := 2 * math.Pi * float64(j) / float64(lon)
			n := vec3{float32(math.Sin(th) * math.Sin(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Cos(ph))}
			v := vec3{c[0] + r[0]*n[0], c[1] + r[1]*n[1], c[2] + r[2]*n[2]}
			nn := normalize(vec3{n[0] / r[0], n[1] / r[1], n[2] / r[2]})
			p.vertex(v, nn, [2]float32{
				uv[0] + (uv[2]-uv[0])*float32(j)/float32(lon),
				uv[1] + (uv[3]-uv[1])*float32(i)/float32(lat),
			}, bind)
		}
	}
	row := uint32(lon + 1)
	for i := 0; i < lat; i++ {
		for j := 0; j < lon; j++ {
			a := base + uint32(i)*row + uint32(j)
			b, c2, d := a+1, a+row, a+row+1
			if i != 0 {
				p.idx = append(p.idx, a, c2, b)
			}
			if i != lat-1 {
				p.idx = append(p.idx, b, c2, d)
			}
		}
	}
}

// box adds an axis-aligned box (flat-shaded: 24 vertices).
func (p *prim) box(c, h vec3, bind binding) {
	for axis := 0; axis < 3; axis++ {
		for _, s := range []float32{-1, 1} {
			u, v := (axis+1)%3, (axis+2)%3
			if s < 0 {
				u, v = v, u
			}
			base := uint32(len(p.pos))
			var n vec3
			n[axis] = s
			for k := 0; k < 4; k++ {
				var q vec3
				q[axis] = c[axis] + s*h[axis]
				su := float32(k&1)*2 - 1
				sv := float32(k>>1)*2 - 1
				q[u] = c[u] + su*h[u]
				q[v] = c[v] + sv*h[v]
				p.vertex(q, n, [2]float32{float32(k & 1), float32(k >> 1)}, bind)
			}
			p.idx = append(p.idx, base, base+1, base+3, base, base+3, base+2)
		}
	}
}

func (p *prim) vertex(v, n vec3, uv [2]float32, bind binding) {
	p.pos = append(p.pos, v)
	p.nrm = append(p.nrm, n)
	p.uv = append(p.uv, uv)
	j, w := bind(v)
	p.joints = append(p.joints, j)
	p.weights = append(p.weights, w)
}

func normalize(v vec3) vec3 {
	l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if l == 0 {
		return vec3{0, 0, 1}
	}
	return vec3{v[0] / l, v[1] / l, v[2] / l}
}

func flat3(v []vec3) []float32 {
	out := make([]float32, 0, 3*len(v))
	for _, x := range v {
		out = append(out, x[:]...)
	}
	return out
}

func flat2(v [][2]float32) []float32 {
	out := make([]float32, 0, 2*len(v))
	for _, x := range v {
		out = append(out, x[:]...)
	}
	return out
}
