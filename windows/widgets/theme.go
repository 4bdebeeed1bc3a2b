// Package widgets holds what Yui's windows share: the tag (the status
// pill, badges, the error line), the icon button, the composer entry, text
// wrapping and cutting to a width, the light theme and the colours of the
// pet's own drawing, the image-attachment dialog, and small helpers for
// showing objects and state colours.
package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Colours of the pet window's own drawing. They do not follow the theme:
// the bubble must stay dark-on-white on any wallpaper.
var (
	ColBubble       = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	ColBubbleStroke = color.NRGBA{0x9a, 0xa0, 0xb0, 0xff}
	ColInk          = color.NRGBA{0x1e, 0x22, 0x2c, 0xff}
	ColPill         = color.NRGBA{0x2b, 0x2f, 0x3a, 0xff}
	ColPillText     = color.NRGBA{0xf4, 0xf5, 0xf8, 0xff}
	ColBadge        = color.NRGBA{0xff, 0xf1, 0xc8, 0xff}
	ColChip         = color.NRGBA{0xff, 0xd8, 0x8a, 0xff}
	ColError        = color.NRGBA{0xc0, 0x1c, 0x28, 0xff}
	ColReady        = color.NRGBA{0x3c, 0xc8, 0x6a, 0xff}
	ColWaiting      = color.NRGBA{0xf0, 0xb4, 0x32, 0xff}
	ColFailed       = color.NRGBA{0xf0, 0x4a, 0x4a, 0xff}
	// ColBackdrop is drawn under the character: the half-transparent edge
	// pixels the shape keeps blend with it instead of the theme background.
	ColBackdrop = color.NRGBA{0x7a, 0x7e, 0x88, 0xff}
)

// Theme is Yui's Fyne theme: the default theme, always in its light
// variant, so entries and menus read dark-on-light beside the bubble.
func Theme() fyne.Theme { return yuiTheme{} }

// ThemeWithFont is Theme with text in font (a system font with the
// glyphs of the user's script, windows/i18n FindFont): Fyne's own font has
// no CJK glyphs. Monospace and symbols keep Fyne's fonts.
func ThemeWithFont(font fyne.Resource) fyne.Theme { return yuiTheme{text: font} }

// ThemeFontMissing is Theme after a search for a font with the glyphs of
// the user's script found none: text draws in Fyne's own font, CJK
// characters as boxes, and the App tab says what to install.
func ThemeFontMissing() fyne.Theme { return yuiTheme{missing: true} }

// FontMissing reports whether t is ThemeFontMissing's.
func FontMissing(t fyne.Theme) bool {
	y, ok := t.(yuiTheme)
	return ok && y.missing
}

// TextFont is the system font a theme draws text in, nil for Fyne's own;
// the settings window's App tab names a font to install when a CJK
// language has none.
func TextFont(t fyne.Theme) fyne.Resource {
	if y, ok := t.(yuiTheme); ok {
		return y.text
	}
	return nil
}

type yuiTheme struct {
	text    fyne.Resource // nil: Fyne's own
	missing bool          // a search for text found none
}

func (yuiTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return theme.DefaultTheme().Color(n, theme.VariantLight)
}

func (t yuiTheme) Font(s fyne.TextStyle) fyne.Resource {
	if t.text != nil && !s.Monospace && !s.Symbol {
		return t.text
	}
	return theme.DefaultTheme().Font(s)
}

func (yuiTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }

func (yuiTheme) Size(n fyne.ThemeSizeName) float32 { return theme.DefaultTheme().Size(n) }
