package rig

import (
	"math"

	"yui/pet/character/vrm"
)

// The posing computes in float64 (the model's float32 is widened once) so
// that long bone chains do not drift; the results go back to float32.

type vec3 [3]float64

// quat is x, y, z, w, as glTF stores rotations.
type quat [4]float64

// mat4 is column-major, as glTF's matrices: m[col*4+row].
type mat4 [16]float64

var identQ = quat{0, 0, 0, 1}

func identM() mat4 { return mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} }

func v3(v vrm.Vec3) vec3 { return vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

func (a vec3) add(b vec3) vec3      { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3      { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float64) vec3 { return vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a vec3) dot(b vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) length() float64      { return math.Sqrt(a.dot(a)) }
func (a vec3) f32() vrm.Vec3        { return vrm.Vec3{float32(a[0]), float32(a[1]), float32(a[2])} }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (a vec3) norm() vec3 {
	l := a.length()
	if l == 0 {
		return a
	}
	return a.scale(1 / l)
}

func q64(q vrm.Quat) quat { return quat{float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])} }

func (q quat) f32() vrm.Quat {
	return vrm.Quat{float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3])}
}

// mul is the Hamilton product: (q.mul(r)) rotates by r first, then q.
func (q quat) mul(r quat) quat {
	return quat{
		q[3]*r[0] + q[0]*r[3] + q[1]*r[2] - q[2]*r[1],
		q[3]*r[1] - q[0]*r[2] + q[1]*r[3] + q[2]*r[0],
		q[3]*r[2] + q[0]*r[1] - q[1]*r[0] + q[2]*r[3],
		q[3]*r[3] - q[0]*r[0] - q[1]*r[1] - q[2]*r[2],
	}
}

func (q quat) conj() quat { return quat{-q[0], -q[1], -q[2], q[3]} }

func (q quat) norm() quat {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return identQ
	}
	return quat{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

func (q quat) rotate(v vec3) vec3 {
	u := vec3{q[0], q[1], q[2]}
	t := u.cross(v).scale(2)
	return v.add(t.scale(q[3])).add(u.cross(t))
}

// axisAngle is the rotation by deg degrees about axis (right-handed).
func axisAngle(axis vec3, deg float64) quat {
	a := axis.norm()
	h := deg * math.Pi / 360
	s := math.Sin(h)
	return quat{a[0] * s, a[1] * s, a[2] * s, math.Cos(h)}
}

// fromTo is the shortest rotation taking direction a to direction b.
func fromTo(a, b vec3) quat {
	a, b = a.norm(), b.norm()
	d := a.dot(b)
	if d < -0.999999 {
		// Opposite: half a turn about any axis perpendicular to a.
		ax := vec3{1, 0, 0}.cross(a)
		if ax.length() < 1e-6 {
			ax = vec3{0, 1, 0}.cross(a)
		}
		return axisAngle(ax, 180)
	}
	c := a.cross(b)
	return quat{c[0], c[1], c[2], 1 + d}.norm()
}

// slerp interpolates from a to b by t along the shorter arc.
func slerp(a, b quat, t float64) quat {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	if d < 0 {
		b = quat{-b[0], -b[1], -b[2], -b[3]}
		d = -d
	}
	if d > 0.9995 {
		return quat{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t, a[3] + (b[3]-a[3])*t}.norm()
	}
	th := math.Acos(d)
	s := math.Sin(th)
	wa, wb := math.Sin((1-t)*th)/s, math.Sin(t*th)/s
	return quat{a[0]*wa + b[0]*wb, a[1]*wa + b[1]*wb, a[2]*wa + b[2]*wb, a[3]*wa + b[3]*wb}
}

// trs is the matrix translate × rotate × scale.
func trs(t vec3, q quat, s vec3) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return mat4{
		(1 - 2*(y*y+z*z)) * s[0], 2 * (x*y + z*w) * s[0], 2 * (x*z - y*w) * s[0], 0,
		2 * (x*y - z*w) * s[1], (1 - 2*(x*x+z*z)) * s[1], 2 * (y*z + x*w) * s[1], 0,
		2 * (x*z + y*w) * s[2], 2 * (y*z - x*w) * s[2], (1 - 2*(x*x+y*y)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
}

func (a mat4) mul(b mat4) mat4 {
	var r mat4
	for c := 0; c < 4; c++ {
		for rr := 0; rr < 4; rr++ {
			r[c*4+rr] = a[rr]*b[c*4] + a[4+rr]*b[c*4+1] + a[8+rr]*b[c*4+2] + a[12+rr]*b[c*4+3]
		}
	}
	return r
}

func (a mat4) point(v vec3) vec3 {
	return vec3{
		a[0]*v[0] + a[4]*v[1] + a[8]*v[2] + a[12],
		a[1]*v[0] + a[5]*v[1] + a[9]*v[2] + a[13],
		a[2]*v[0] + a[6]*v[1] + a[10]*v[2] + a[14],
	}
}

func (a mat4) origin() vec3 { return vec3{a[12], a[13], a[14]} }

func m64(m vrm.Mat4) mat4 {
	var r mat4
	for i, v := range m {
		r[i] = float64(v)
	}
	return r
}

// normalMat is the inverse-transpose of a's linear part as a column-major
// 3×3 (n[col*3+row]); the zero matrix when a is singular.
func normalMat(a mat4) [9]float64 {
	m00, m01, m02 := a[0], a[4], a[8]
	m10, m11, m12 := a[1], a[5], a[9]
	m20, m21, m22 := a[2], a[6], a[10]
	c00 := m11*m22 - m12*m21
	c01 := m12*m20 - m10*m22
	c02 := m10*m21 - m11*m20
	det := m00*c00 + m01*c01 + m02*c02
	if det == 0 {
		return [9]float64{}
	}
	inv := 1 / det
	// The inverse-transpose is the cofactor matrix over the determinant.
	c10 := m02*m21 - m01*m22
	c11 := m00*m22 - m02*m20
	c12 := m01*m20 - m00*m21
	c20 := m01*m12 - m02*m11
	c21 := m02*m10 - m00*m12
	c22 := m00*m11 - m01*m10
	return [9]float64{
		c00 * inv, c10 * inv, c20 * inv,
		c01 * inv, c11 * inv, c21 * inv,
		c02 * inv, c12 * inv, c22 * inv,
	}
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

func finiteM(m mat4) bool { return finite(m[:]...) }
