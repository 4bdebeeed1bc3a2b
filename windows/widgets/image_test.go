package widgets

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

func TestReadImageTakesPNGAndJPEGByContent(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data []byte
		mime string
	}{{p.Bytes(), "image/png"}, {j.Bytes(), "image/jpeg"}} {
		got, err := ReadImage(bytes.NewReader(c.data))
		if err != nil || got.MIME != c.mime || !bytes.Equal(got.Data, c.data) {
			t.Errorf("ReadImage(%s) = %q, %v", c.mime, got.MIME, err)
		}
	}
	if _, err := ReadImage(strings.NewReader("GIF89a not a png")); err == nil || !strings.Contains(err.Error(), "PNG and JPEG") {
		t.Errorf("a GIF: err = %v", err)
	}
	big := append(append([]byte(nil), p.Bytes()...), make([]byte, MaxAttachment)...)
	if _, err := ReadImage(bytes.NewReader(big)); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("an image past the limit: err = %v", err)
	}
}
