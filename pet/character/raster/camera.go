package raster

import (
	"errors"
	"math"
)

// v3 is the float64 vector the setup works in: camera maths and screen
// positions are kept in double precision so that large pictures keep
// their edges exact; only the per-sample shading is float32.
type v3 [3]float64

func (a v3) sub(b v3) v3        { return v3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a v3) add(b v3) v3        { return v3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a v3) scale(k float64) v3 { return v3{a[0] * k, a[1] * k, a[2] * k} }
func (a v3) dot(b v3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a v3) cross(b v3) v3 {
	return v3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a v3) norm() (v3, bool) {
	l := math.Sqrt(a.dot(a))
	if !(l > 1e-20) || math.IsInf(l, 0) {
		return v3{}, false
	}
	return a.scale(1 / l), true
}

func to64(v Vec3) v3 { return v3{float64(v[0]), float64(v[1]), float64(v[2])} }

// view is a camera made ready for projection: an orthonormal basis, the
// focal scales and the picture size in samples.
type view struct {
	eye                v3
	right, up, forward v3
	fx, fy             float64 // focal lengths: NDC per unit of x/w, y/w
	tanY, tanX         float64
	near, far          float64
	w, h               float64 // target size (samples or pixels)
}

var errCamera = errors.New("raster: camera")

func newView(c Camera, w, h int) (view, error) {
	eye, target, upHint := to64(c.Eye), to64(c.Target), to64(c.Up)
	fov, near, far := float64(c.FovY), float64(c.Near), float64(c.Far)
	if !finite3(eye) || !finite3(target) || !finite3(upHint) {
		return view{}, errors.New("raster: camera: non-finite eye, target or up")
	}
	if !(fov > 0 && fov < math.Pi-1e-6) {
		return view{}, errors.New("raster: camera: field of view out of (0, π)")
	}
	if !(near > 0) || !(far > near) || math.IsInf(far, 0) {
		return view{}, errors.New("raster: camera: want 0 < near < far")
	}
	fwd, ok := target.sub(eye).norm()
	if !ok {
		return view{}, errors.New("raster: camera: eye and target coincide")
	}
	right, ok := fwd.cross(upHint).norm()
	if !ok {
		return view{}, errors.New("raster: camera: up is parallel to the view direction")
	}
	up := right.cross(fwd)
	tanY := math.Tan(fov / 2)
	aspect := float64(w) / float64(h)
	return view{
		eye: eye, right: right, up: up, forward: fwd,
		fx: 1 / (tanY * aspect), fy: 1 / tanY, tanY: tanY, tanX: tanY * aspect,
		near: near, far: far, w: float64(w), h: float64(h),
	}, nil
}

// clip returns a world point in clip space: x and y before the divide and
// w, the distance along the view direction.
func (v *view) clip(p v3) (cx, cy, w float64) {
	d := p.sub(v.eye)
	return v.fx * d.dot(v.right), v.fy * d.dot(v.up), d.dot(v.forward)
}

// screen divides clip coordinates into picture coordinates: x right,
// y down, in units of the view's size.
func (v *view) screen(cx, cy, w float64) (x, y float64) {
	return (cx/w + 1) * 0.5 * v.w, (1 - cy/w) * 0.5 * v.h
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
func finite3(a v3) bool     { return finite(a[0]) && finite(a[1]) && finite(a[2]) }

func project(c Camera, o Options, p Vec3) (float32, float32, bool) {
	if o.Width <= 0 || o.Height <= 0 {
		return 0, 0, false
	}
	v, err := newView(c, o.Width, o.Height)
	if err != nil {
		return 0, 0, false
	}
	q := to64(p)
	if !finite3(q) {
		return 0, 0, false
	}
	cx, cy, w := v.clip(q)
	if !(w > 0) {
		return 0, 0, false
	}
	x, y := v.screen(cx, cy, w)
	return float32(x), float32(y), finite(x) && finite(y)
}
