package character

import "image"

// Gaze directions: the keys of character.json's optional "gaze" object.
const (
	GazeLeft  = "left"
	GazeRight = "right"
)

// GazeAt is where the character looks with the pointer at ptr and its body
// at body (both in desktop pixels): GazeLeft or GazeRight while the pointer
// is near (within one body width beside it and half a height above or
// below) and off to that side of the face's middle third, else "" (ahead).
func GazeAt(body image.Rectangle, ptr image.Point) string {
	w, h := body.Dx(), body.Dy()
	near := image.Rect(body.Min.X-w, body.Min.Y-h/2, body.Max.X+w, body.Max.Y+h/2)
	if w <= 0 || h <= 0 || !ptr.In(near) {
		return ""
	}
	cx := (body.Min.X + body.Max.X) / 2
	switch {
	case ptr.X < cx-w/6:
		return GazeLeft
	case ptr.X > cx+w/6:
		return GazeRight
	}
	return ""
}
