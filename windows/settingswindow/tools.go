package settingswindow

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/tools/mcp"
)

// The Tools tab (docs/product.md §12, docs/mcp.md): the user's MCP
// servers with their state, tool count and last error; whether the
// selected preset uses each; each tool with its description and
// permission; Add, Edit, Remove, Test, Restart, and the import of a
// Claude Desktop or Cursor file. Servers run in the app's mcp.Manager,
// which the app offers when it has one (app/mcp.go).

// toolsTab is the tab's title.
const toolsTab = "Tools"

// mcpBackend is the Tools tab's optional ability, asserted on the app in
// App.Presets.
type mcpBackend interface{ MCP() *mcp.Manager }

// toolsSection is the Tools tab.
type toolsSection struct {
	w    *SettingsWindow
	list *fyne.Container
	box  fyne.CanvasObject
}

func newToolsSection(w *SettingsWindow) *toolsSection {
	t := &toolsSection{w: w, list: container.NewVBox()}
	add := widget.NewButton(lang.L("Add local server"), func() { t.edit("", settings.MCPServer{Command: "npx"}) })
	addURL := widget.NewButton(lang.L("Add remote server"), func() { t.edit("", settings.MCPServer{URL: "https://"}) })
	imp := widget.NewButton(lang.L("Import from Claude Desktop or Cursor"), t.importFile)
	t.box = container.NewBorder(container.NewHBox(add, addURL, imp), nil, nil, nil, container.NewVScroll(t.list))
	w.unsub = append(w.unsub, w.b.WatchSessions(func() { fyne.Do(t.refresh) }))
	return t
}

func (t *toolsSection) content() fyne.CanvasObject {
	t.refresh()
	return t.box
}

// manager is the app's MCP manager, or nil.
func (t *toolsSection) manager() *mcp.Manager {
	if mb, ok := t.w.b.Presets.(mcpBackend); ok {
		return mb.MCP()
	}
	return nil
}

// refresh redraws every server's card. UI thread.
func (t *toolsSection) refresh() {
	if t.w.win == nil {
		return
	}
	st := t.w.b.Store().Get()
	t.list.RemoveAll()
	if len(st.MCPServers) == 0 {
		t.list.Add(widget.NewLabel(lang.L("No tool servers yet: add one, or import the servers of Claude Desktop or Cursor.")))
	}
	p, _ := st.Preset(t.w.selected)
	for _, name := range slices.Sorted(maps.Keys(st.MCPServers)) {
		t.list.Add(t.card(name, st, p))
	}
	t.list.Refresh()
}

// stateText is a server's state as the tab shows it.
func stateText(s mcp.Status) string {
	switch s.State {
	case mcp.StateRunning:
		return lang.N("running with {{.Count}} tools", len(s.Tools), map[string]any{"Count": len(s.Tools)})
	case mcp.StateFailed:
		return lang.L("failed: {{.Error}}", map[string]any{"Error": s.Err})
	case mcp.StateStarting:
		if s.Err != "" {
			return lang.L("starting (last error: {{.Error}})", map[string]any{"Error": s.Err})
		}
		return lang.L("starting")
	}
	return lang.L("stopped")
}

// card is one server: its state, its switch for the preset, its buttons
// and its tools with their permissions.
func (t *toolsSection) card(name string, st settings.Settings, p *settings.Preset) fyne.CanvasObject {
	m := t.manager()
	status := mcp.Status{Name: name, State: mcp.StateStopped}
	if m != nil {
		status, _ = m.Status(name)
	}
	title := widget.NewLabelWithStyle(name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	state := widget.NewLabel(stateText(status))
	state.Wrapping = fyne.TextWrapWord
	use := widget.NewCheck(lang.L("Use with this preset"), func(on bool) { t.setUse(name, on) })
	use.Checked = p != nil && slices.Contains(p.MCP, name)
	srv := st.MCPServers[name]
	buttons := container.NewHBox(use,
		widget.NewButton(lang.L("Test"), func() { t.test(name, srv) }),
		widget.NewButton(lang.L("Restart"), func() {
			if m != nil {
				m.Restart(name)
			}
		}),
		widget.NewButton(lang.L("Edit"), func() { t.edit(name, srv) }),
		widget.NewButton(lang.L("Remove"), func() { t.remove(name) }))
	rows := container.NewVBox(title, state, buttons)
	for _, tool := range status.Tools {
		rows.Add(t.toolRow(mcp.ToolName(name, tool.Name), tool.Description, st))
	}
	return widget.NewCard("", "", rows)
}

// toolRow is one tool with its permission.
func (t *toolsSection) toolRow(declared, desc string, st settings.Settings) fyne.CanvasObject {
	labels := map[string]string{settings.MCPAsk: lang.L("Ask"), settings.MCPAllow: lang.L("Allow"), settings.MCPDeny: lang.L("Deny")}
	values := []string{settings.MCPAsk, settings.MCPAllow, settings.MCPDeny}
	opts := []string{labels[values[0]], labels[values[1]], labels[values[2]]}
	sel := widget.NewSelect(opts, nil)
	sel.SetSelected(labels[st.MCPPermission(declared)])
	sel.OnChanged = func(v string) {
		for _, k := range values {
			if labels[k] == v {
				t.save(func(s *settings.Settings) {
					if s.MCPPermissions == nil {
						s.MCPPermissions = map[string]string{}
					}
					s.MCPPermissions[declared] = k
				})
			}
		}
	}
	d := widget.NewLabel(desc)
	d.Wrapping = fyne.TextWrapWord
	d.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, widget.NewLabelWithStyle(declared, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true}), sel, d)
}

// save updates the settings, showing an error in a dialog.
func (t *toolsSection) save(fn func(*settings.Settings)) {
	err := t.w.b.Store().Update(func(s *settings.Settings) error { fn(s); return nil })
	if err != nil {
		t.w.showError(err)
	}
	t.refresh()
}

// setUse adds or removes the server from the selected preset's mcp.
func (t *toolsSection) setUse(name string, on bool) {
	id := t.w.selected
	t.save(func(s *settings.Settings) {
		p, ok := s.Preset(id)
		if !ok {
			return
		}
		p.MCP = slices.DeleteFunc(p.MCP, func(n string) bool { return n == name })
		if on {
			p.MCP = append(p.MCP, name)
		}
	})
}

func (t *toolsSection) remove(name string) {
	dialog.ShowConfirm(lang.L("Remove server"), fmt.Sprintf(lang.L("Remove %s and its permissions?"), name), func(ok bool) {
		if !ok {
			return
		}
		t.save(func(s *settings.Settings) {
			delete(s.MCPServers, name)
			for k := range s.MCPPermissions {
				if strings.HasPrefix(k, mcp.ToolName(name, "")) {
					delete(s.MCPPermissions, k)
				}
			}
			for i := range s.Presets {
				s.Presets[i].MCP = slices.DeleteFunc(s.Presets[i].MCP, func(n string) bool { return n == name })
			}
		})
	}, t.w.win)
}

// test connects to the server as saved and lists its tools, off the UI thread.
func (t *toolsSection) test(name string, srv settings.MCPServer) {
	m := t.manager()
	if m == nil {
		return
	}
	cfg := mcp.ServerConfig{Name: name, Command: srv.Command, Args: srv.Args, Env: srv.Env, URL: srv.URL,
		Headers: srv.Headers, Timeout: time.Duration(srv.TimeoutS) * time.Second}
	t.w.jobs.Add(1)
	go func() {
		defer t.w.jobs.Done()
		ctx, cancel := context.WithTimeout(t.w.ctx, 2*time.Minute)
		defer cancel()
		tools, err := m.Test(ctx, cfg)
		fyne.Do(func() {
			if t.w.win == nil {
				return
			}
			if err != nil {
				t.w.showError(err)
				return
			}
			var names []string
			for _, tl := range tools {
				names = append(names, tl.Name)
			}
			dialog.ShowInformation(lang.L("Test"), lang.N("{{.Name}} lists {{.Count}} tools", len(tools), map[string]any{"Name": name, "Count": len(tools)})+":\n"+strings.Join(names, "\n"), t.w.win)
		})
	}()
}

// edit shows the form of a server: a new one when name is "".
func (t *toolsSection) edit(name string, srv settings.MCPServer) {
	nameE := widget.NewEntry()
	nameE.SetText(name)
	cmdE, urlE := widget.NewEntry(), widget.NewEntry()
	cmdE.SetText(srv.Command)
	urlE.SetText(srv.URL)
	argsE, kvE := widget.NewMultiLineEntry(), widget.NewMultiLineEntry()
	argsE.SetText(strings.Join(srv.Args, "\n"))
	timeoutE := widget.NewEntry()
	timeoutE.SetText(strconv.Itoa(srv.TimeoutS))
	local := srv.URL == ""
	kv := srv.Env
	if !local {
		kv = srv.Headers
	}
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		lines = append(lines, k+"="+kv[k])
	}
	kvE.SetText(strings.Join(lines, "\n"))
	items := []*widget.FormItem{widget.NewFormItem(lang.L("Name"), nameE)}
	if local {
		items = append(items, widget.NewFormItem(lang.L("Command"), cmdE), widget.NewFormItem(lang.L("Arguments, one a line"), argsE),
			widget.NewFormItem(lang.L("Environment, NAME=value a line"), kvE))
	} else {
		items = append(items, widget.NewFormItem(lang.L("URL"), urlE), widget.NewFormItem(lang.L("Headers, Name=value a line"), kvE))
	}
	items = append(items, widget.NewFormItem(lang.L("Time-out (s, 0 is 60)"), timeoutE))
	d := dialog.NewForm(lang.L("Tool server"), lang.L("Save"), lang.L("Cancel"), items, func(ok bool) {
		if !ok {
			return
		}
		out := settings.MCPServer{Type: srv.Type}
		out.TimeoutS, _ = strconv.Atoi(strings.TrimSpace(timeoutE.Text))
		pairs := parsePairs(kvE.Text)
		if local {
			out.Command, out.Args, out.Env = strings.TrimSpace(cmdE.Text), nonEmptyLines(argsE.Text), pairs
		} else {
			out.URL, out.Headers = strings.TrimSpace(urlE.Text), pairs
		}
		newName := strings.TrimSpace(nameE.Text)
		id := t.w.selected
		t.save(func(s *settings.Settings) {
			if name != "" && name != newName {
				delete(s.MCPServers, name)
			}
			if s.MCPServers == nil {
				s.MCPServers = map[string]settings.MCPServer{}
			}
			s.MCPServers[newName] = out
			if p, ok := s.Preset(id); ok && name == "" && !slices.Contains(p.MCP, newName) {
				p.MCP = append(p.MCP, newName) // a new server goes to this preset
			}
		})
	}, t.w.win)
	d.Resize(fyne.NewSize(560, 420))
	d.Show()
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func parsePairs(s string) map[string]string {
	out := map[string]string{}
	for _, l := range nonEmptyLines(s) {
		if k, v, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) != "" {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// importFile offers the usual files that exist, or a picked one, then
// shows what would be added before adding it.
func (t *toolsSection) importFile() {
	home, _ := os.UserHomeDir()
	var found []string
	for _, p := range settings.MCPImportPaths(home, os.Getenv("APPDATA")) {
		if _, err := os.Stat(p); err == nil {
			found = append(found, p)
		}
	}
	pick := widget.NewButton(lang.L("Pick a file…"), nil)
	var d dialog.Dialog
	rows := container.NewVBox()
	for _, p := range found {
		rows.Add(widget.NewButton(p, func() { d.Hide(); t.preview(p) }))
	}
	if len(found) == 0 {
		rows.Add(widget.NewLabel(lang.L("No Claude Desktop or Cursor file was found at the usual places.")))
	}
	pick.OnTapped = func() {
		d.Hide()
		dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			path := r.URI().Path()
			r.Close()
			t.preview(path)
		}, t.w.win)
	}
	rows.Add(pick)
	d = dialog.NewCustom(lang.L("Import from Claude Desktop or Cursor"), lang.L("Cancel"), rows, t.w.win)
	d.Show()
}

// preview lists the servers of path and adds them when the user agrees.
func (t *toolsSection) preview(path string) {
	servers, err := settings.ReadMCPFile(path)
	if err != nil {
		t.w.showError(err)
		return
	}
	have := t.w.b.Store().Get().MCPServers
	var lines []string
	for _, n := range slices.Sorted(maps.Keys(servers)) {
		s := servers[n]
		what := s.URL
		if what == "" {
			what = strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
		}
		if _, dup := have[n]; dup {
			what = lang.L("{{.Server}} (kept: a server of that name exists)", map[string]any{"Server": what})
		}
		lines = append(lines, n+": "+what)
	}
	msg := widget.NewLabel(strings.Join(lines, "\n"))
	msg.Wrapping = fyne.TextWrapWord
	// A scroll's own minimum is one line: the list needs room to be read.
	list := container.NewVScroll(msg)
	list.SetMinSize(fyne.NewSize(480, 160))
	dialog.ShowCustomConfirm(lang.L("Add these servers?"), lang.L("Add"), lang.L("Cancel"), list, func(ok bool) {
		if !ok {
			return
		}
		id := t.w.selected
		t.save(func(s *settings.Settings) { s.AddMCPServers(servers, id) })
	}, t.w.win)
}

// toolsContent makes the Tools tab (window.go registers it).
func (w *SettingsWindow) toolsContent() fyne.CanvasObject {
	w.tools = newToolsSection(w)
	return w.tools.content()
}
