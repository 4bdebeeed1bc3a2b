// Package imagefit is the JPEG fitter of client-tools.md: it fits images
// into a frame's byte budget for turn.images and image tool results.
package imagefit

import "yui/transport"

// Fit implements transport.ImageFitter: it returns data URLs whose
// JSON-encoded array takes at most room bytes, keeping images that fit
// their equal share as they are and re-encoding the others as JPEG (lower
// quality first, then smaller dimensions). ok is false when nothing fits.
// Deterministic.
func Fit(images []transport.Image, room int) (urls []string, ok bool) { panic("TODO") }

var _ transport.ImageFitter = Fit
