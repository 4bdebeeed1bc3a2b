package raster

import (
	"context"
	"image"
	"runtime"
	"sync"
	"sync/atomic"
)

// The drop shadow's colour in sRGB, the built-in characters' (a deep
// plum, assets/gen/looks.go's shadow), so imported characters sit on the
// desktop as they do.
const shadowR, shadowG, shadowB = 48, 26, 44

func render(ctx context.Context, s *Scene, o Options) (*image.NRGBA, error) {
	set, err := checkOptions(o, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, err
	}
	if err := checkScene(s); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sw, sh := set.w*set.ss, set.h*set.ss
	v, err := newView(s.Camera, sw, sh)
	if err != nil {
		return nil, err
	}
	pv, _ := newView(s.Camera, set.w, set.h)
	ct := newColorTables()
	b := &builder{v: &v, ct: ct, sw: int32(sw), sh: int32(sh)}
	if err := b.build(ctx, s); err != nil {
		return nil, err
	}
	r := &renderer{
		set: set, v: v, pv: pv, verts: b.verts, tris: b.tris, mats: b.mats,
		light: newLightRig(s.Light), ct: ct, sw: sw, sh: sh,
		eye:   s.Camera.Eye,
		minIW: float32(1 / v.far),
	}
	if sd := s.Shadow; sd != nil && sd.Opacity > 0 && sd.RadiusX > 0 && sd.RadiusZ > 0 &&
		finite(float64(sd.Ground)) && finite(float64(sd.Center[0])) && finite(float64(sd.Center[1])) &&
		finite(float64(sd.RadiusX)) && finite(float64(sd.RadiusZ)) {
		r.shadow = sd
		r.shCol = Vec3{ct.toLinear[shadowR], ct.toLinear[shadowG], ct.toLinear[shadowB]}
	}
	opaque, blend := b.order()
	r.bandRows = bandRowsFor(sw, set.ss)
	nb := (set.h + r.bandRows - 1) / r.bandRows
	r.opaqueBins = bin(r.tris, opaque, nb, r.bandRows*set.ss)
	r.blendBins = bin(r.tris, blend, nb, r.bandRows*set.ss)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	out := image.NewNRGBA(image.Rect(0, 0, set.w, set.h))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(set.workers, nb) {
		wg.Go(func() {
			buf := newBandBuf(r.bandRows * set.ss * sw)
			for ctx.Err() == nil {
				bi := int(next.Add(1) - 1)
				if bi >= nb {
					return
				}
				r.drawBand(bi, buf, out)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// bin lists, for each band of rows samples high, the triangles of ids
// that touch it, keeping the order of ids.
func bin(tris []tri, ids []int32, nb, rows int) [][]int32 {
	counts := make([]int, nb)
	for _, ti := range ids {
		t := &tris[ti]
		for b := int(t.y0) / rows; b <= min(int(t.y1)/rows, nb-1); b++ {
			counts[b]++
		}
	}
	bins := make([][]int32, nb)
	for b, c := range counts {
		bins[b] = make([]int32, 0, c)
	}
	for _, ti := range ids {
		t := &tris[ti]
		for b := int(t.y0) / rows; b <= min(int(t.y1)/rows, nb-1); b++ {
			bins[b] = append(bins[b], ti)
		}
	}
	return bins
}
