package app

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png"
	"log/slog" // the icon is a PNG
	"runtime"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/systray"
	"github.com/fyne-io/image/ico"
)

// sysTray shows a fyne.Menu in the desktop's tray through fyne.io/systray,
// the library under Fyne's own tray.
//
// Fyne's SetSystemTrayMenu also creates a hidden window, the way it hears
// macOS's dock ask the app to quit, and every Fyne window has a GL
// context of its own: under a software GL that hidden window cost the
// process about 8 MiB, as much as a pet window, on every desktop with a
// tray. Yui has no dock menu to hear, so it drives the library directly.
//
// start and SetMenu run on the UI goroutine, as the library's calls did
// under Fyne (on Windows the tray's window belongs to the thread that
// registers it, whose message loop is Fyne's). Stop may run anywhere, and
// more than once.
type sysTray struct {
	end  func()
	once sync.Once
}

// startTray shows the icon with the title; the menu comes with SetMenu.
// An icon that does not convert is logged (tray_icon) and the tray shows
// without it.
func startTray(title string, icon []byte, log *slog.Logger) *sysTray {
	start, end := systray.RunWithExternalLoop(func() {
		if img, err := trayIcon(icon); err == nil {
			systray.SetIcon(img)
		} else {
			log.Warn("tray_icon", "err", err.Error())
		}
		systray.SetTitle(title)
		systray.SetTooltip(title)
	}, nil)
	start()
	return &sysTray{end: end}
}

// SetMenu replaces the tray's menu with m. Each item's action runs on the
// UI goroutine; a replaced item's listener ends with it (the library
// closes its channel).
func (t *sysTray) SetMenu(m *fyne.Menu) {
	systray.ResetMenu()
	addTrayItems(m, nil)
}

// Stop takes the icon away.
func (t *sysTray) Stop() {
	t.once.Do(t.end)
}

// addTrayItems adds m's items under parent (nil: the top level).
func addTrayItems(m *fyne.Menu, parent *systray.MenuItem) {
	if m == nil {
		return
	}
	for _, i := range m.Items {
		if i.IsSeparator {
			if parent != nil {
				parent.AddSeparator()
			} else {
				systray.AddSeparator()
			}
			continue
		}
		var item *systray.MenuItem
		switch {
		case parent != nil && i.Checked:
			item = parent.AddSubMenuItemCheckbox(i.Label, "", true)
		case parent != nil:
			item = parent.AddSubMenuItem(i.Label, "")
		case i.Checked:
			item = systray.AddMenuItemCheckbox(i.Label, "", true)
		default:
			item = systray.AddMenuItem(i.Label, "")
		}
		if i.Disabled {
			item.Disable()
		}
		addTrayItems(i.ChildMenu, item)
		if action := i.Action; action != nil {
			go func() {
				for range item.ClickedCh {
					fyne.Do(action)
				}
			}()
		}
	}
}

// trayIcon is the icon in the form the platform's tray takes: the PNG as
// it is, or on Windows an ICO.
func trayIcon(png []byte) ([]byte, error) {
	if runtime.GOOS != "windows" {
		return png, nil
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		return nil, fmt.Errorf("decode the tray icon: %w", err)
	}
	var buf bytes.Buffer
	if err := ico.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode the tray icon: %w", err)
	}
	return buf.Bytes(), nil
}
