package dataurl

import (
	"strings"
	"testing"
)

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestEncode(t *testing.T) {
	for _, c := range []struct {
		mime string
		data []byte
		want string
	}{
		{"image/png", []byte("PNGDATA"), "data:image/png;base64,UE5HREFUQQ=="},
		{"image/jpeg", []byte("JPG1"), "data:image/jpeg;base64,SlBHMQ=="},
		{"image/webp", nil, "data:image/webp;base64,"},
	} {
		got := Encode(c.mime, c.data)
		if got != c.want {
			t.Errorf("Encode(%q, %q) = %q, want %q", c.mime, c.data, got, c.want)
		}
		if n := Len(c.mime, len(c.data)); n != len(got) {
			t.Errorf("Len(%q, %d) = %d, want %d", c.mime, len(c.data), n, len(got))
		}
		if a := string(Append([]byte("x"), c.mime, c.data)); a != "x"+c.want {
			t.Errorf("Append = %q, want %q", a, "x"+c.want)
		}
	}
}

func TestImageMIME(t *testing.T) {
	for _, c := range []struct {
		mime string
		data []byte
		want string
	}{
		{"image/jpeg", png, "image/jpeg"},              // a plain type is kept
		{"image/svg+xml", nil, "image/svg+xml"},        // '+' is plain
		{"", png, "image/png"},                         // sniffed
		{"image/png\"", []byte("GIF89a"), "image/gif"}, // not plain: sniffed
		{"text/plain", []byte("hello"), "image/png"},   // nothing to sniff
		{"image/", nil, "image/png"},
		{"image/JPEG", nil, "image/png"},
		{"image/" + strings.Repeat("x", 64), nil, "image/png"},
	} {
		if got := ImageMIME(c.mime, c.data); got != c.want {
			t.Errorf("ImageMIME(%q) = %q, want %q", c.mime, got, c.want)
		}
	}
}
