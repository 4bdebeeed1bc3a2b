// Package gnome is Yui's GNOME Shell extension, which publishes the
// windows' facts on the session bus (core.js), and its installation for
// the user (`yui desktop setup`, the App tab): the files, written for the
// running shell's module format, and the shell's list of enabled
// extensions. The desktop layer reads the facts (tools/desktop/compositor.go).
package gnome

import (
	_ "embed"
	"encoding/json"
	"strings"
)

// UUID is the extension's id: its folder's name under
// gnome-shell/extensions, in the user's data folder or the system's.
const UUID = "yui-windows@yui.github.io"

// The extension's D-Bus names (core.js says the same).
const (
	BusName    = "io.github.yui.Windows"
	ObjectPath = "/io/github/yui/Windows"
	Interface  = "io.github.yui.Windows1"
)

// Version is the extension's version, the same in every Yui binary that
// carries these files: a changed file makes a new one, which setup
// writes over an older copy.
const Version = 1

// FirstESMShell is the first GNOME Shell whose extensions are ES modules
// (GNOME 45); before it, the legacy format of GNOME 43–44.
const FirstESMShell = 45

// Shells are the GNOME Shell versions metadata.json declares.
var Shells = []string{"43", "44", "45", "46", "47", "48"}

var (
	//go:embed core.js
	coreJS string
	//go:embed legacy.js
	legacyJS string
	//go:embed esm.js
	esmJS string
)

// coreMark is where a shim takes core.js.
const coreMark = "/* YUI-CORE */"

// Files are the extension's files for GNOME Shell major version shell:
// metadata.json and extension.js, core.js inside the shim of that
// shell's module format.
func Files(shell int) map[string][]byte {
	shim := legacyJS
	if shell >= FirstESMShell {
		shim = esmJS
	}
	core := coreJS + "\nconst YUI_VERSION = '" + versionString() + "';\n"
	meta := map[string]any{
		"uuid":          UUID,
		"name":          "Yui window facts",
		"description":   "Tells Yui, the desktop companion, where the windows are (titles, applications, frames, focus) over the session bus. Window facts only: no screenshots, no moving windows.",
		"shell-version": Shells,
		"url":           "https://github.com/yui-desktop/yui",
		"version":       Version,
	}
	m, _ := json.MarshalIndent(meta, "", "  ") // a map of plain values: no error
	return map[string][]byte{
		"metadata.json": append(m, '\n'),
		"extension.js":  []byte(strings.Replace(shim, coreMark, core, 1)),
	}
}

func versionString() string {
	b, _ := json.Marshal(Version)
	return string(b)
}
