package widgets

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"

	"yui/transport"
)

// MaxAttachment is the largest image file an attach button takes; the
// transport's JPEG fitter then fits it to the frame.
const MaxAttachment = 32 << 20

// OpenImage shows the file dialog for a PNG or JPEG in parent; done gets
// the image, an error for the user, or neither when cancelled. UI thread.
func OpenImage(parent fyne.Window, done func(transport.Image, error)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			done(transport.Image{}, imageError{fmt.Errorf("the image could not be opened: %w", err),
				lang.L("The image could not be opened.")})
			return
		}
		if r == nil {
			done(transport.Image{}, nil) // cancelled
			return
		}
		defer r.Close()
		done(ReadImage(r))
	}, parent)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG"}))
	d.Resize(fyne.NewSize(700, 500))
	d.Show()
}

// ReadImage reads an attachment: PNG or JPEG by content, not by name.
func ReadImage(r io.Reader) (transport.Image, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxAttachment+1))
	if err != nil {
		return transport.Image{}, imageError{fmt.Errorf("the image could not be read: %w", err),
			lang.L("The image could not be read.")}
	}
	if len(data) > MaxAttachment {
		return transport.Image{}, imageError{fmt.Errorf("the image is too large (over %d MiB)", MaxAttachment>>20),
			lang.L("The image is too large (over {{.MiB}} MiB).", map[string]any{"MiB": MaxAttachment >> 20})}
	}
	switch mime := http.DetectContentType(data); mime {
	case "image/png", "image/jpeg":
		return transport.Image{MIME: mime, Data: data}, nil
	}
	return transport.Image{}, imageError{errors.New("only PNG and JPEG images can be attached"), lang.L("Only PNG and JPEG images can be attached.")}
}

// imageError is an attachment refused: English for the log, and its text
// in the user's language for the window (i18n.Translated).
type imageError struct {
	error
	translated string
}

func (e imageError) Translated() string { return e.translated }
