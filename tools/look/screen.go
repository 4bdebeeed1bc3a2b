package look

import (
	"fmt"
	"image"

	"github.com/kbinani/screenshot"
)

// Screen is the Capturer of the real desktop, through
// github.com/kbinani/screenshot.
type Screen struct{}

// Capture implements Capturer.
func (Screen) Capture(r image.Rectangle) (*image.RGBA, error) {
	if r.Empty() {
		return nil, fmt.Errorf("capture %v: empty rectangle", r)
	}
	img, err := screenshot.CaptureRect(r.Sub(captureOrigin()))
	if err != nil {
		return nil, fmt.Errorf("capture %v: %w", r, err)
	}
	return img, nil
}
