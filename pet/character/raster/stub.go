package raster

import (
	"context"
	"errors"
	"image"
)

// The drawing itself is being written (the renderer's own files replace
// this one).
func render(ctx context.Context, s *Scene, o Options) (*image.NRGBA, error) {
	return nil, errors.New("raster: not yet implemented")
}

func project(c Camera, o Options, p Vec3) (float32, float32, bool) { return 0, 0, false }
