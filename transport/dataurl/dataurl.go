// Package dataurl builds the data URLs images travel in
// ("data:image/png;base64,iVBOR…"): in a push turn's images, in a request
// transport's image parts and in fitted tool-result images. It is the one
// data-URL builder; it imports nothing of the project, so every layer may
// use it.
//
// The MIME type is written as it is: ImageMIME picks a type that is safe to
// write (no quoting or escaping needed in JSON), so a data URL built from
// its answer can be spliced into a JSON document as a plain string.
package dataurl

import (
	"encoding/base64"
	"net/http"
	"strings"
)

const (
	scheme     = "data:"
	base64Mark = ";base64,"
	// maxMIME bounds the MIME type taken from a caller.
	maxMIME = 64
)

// Encode returns the data URL of data with the MIME type mime.
func Encode(mime string, data []byte) string {
	return string(Append(make([]byte, 0, Len(mime, len(data))), mime, data))
}

// Append appends the data URL of data to dst, base64-encoding straight
// into it: a frame builder need not hold the URL twice.
func Append(dst []byte, mime string, data []byte) []byte {
	dst = append(dst, scheme...)
	dst = append(dst, mime...)
	dst = append(dst, base64Mark...)
	return base64.StdEncoding.AppendEncode(dst, data)
}

// Len is the length in bytes of the data URL of n bytes of type mime.
func Len(mime string, n int) int {
	return len(scheme) + len(mime) + len(base64Mark) + base64.StdEncoding.EncodedLen(n)
}

// ImageMIME returns mime when it is a plain image/<subtype> (lower-case
// letters, digits, '.', '+', '-'; at most 64 bytes), else the image type
// sniffed from data, else image/png.
func ImageMIME(mime string, data []byte) string {
	if PlainImage(mime) {
		return mime
	}
	if m := http.DetectContentType(data); PlainImage(m) {
		return m
	}
	return "image/png"
}

// PlainImage reports whether mime is image/<subtype> with a subtype of
// lower-case letters, digits, '.', '+' and '-' only, and at most 64 bytes.
func PlainImage(mime string) bool {
	sub, ok := strings.CutPrefix(mime, "image/")
	if !ok || sub == "" || len(mime) > maxMIME {
		return false
	}
	for i := 0; i < len(sub); i++ {
		ch := sub[i]
		if !('a' <= ch && ch <= 'z' || '0' <= ch && ch <= '9' || ch == '.' || ch == '+' || ch == '-') {
			return false
		}
	}
	return true
}
