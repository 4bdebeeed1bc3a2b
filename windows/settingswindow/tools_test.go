package settingswindow

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"yui/tools/mcp"
)

// mcpFake is the fake backend with an MCP manager.
type mcpFake struct {
	*fakeBackend
	m *mcp.Manager
}

func (f mcpFake) MCP() *mcp.Manager { return f.m }

// labels are the texts of every label in the window.
func labels(root fyne.CanvasObject) []string {
	var out []string
	walk(root, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	})
	return out
}

// A server that cannot start shows its reason in the Tools tab, and the
// tab's switch adds a server to the preset.
func TestToolsTabShowsAFailedServer(t *testing.T) {
	b := newFakeBackendWithFile(t, `{"version": 1, "active_preset": "p-00000001",
	 "mcp_servers": {"gone": {"command": "/nonexistent/mcp-server"}, "other": {"url": "http://127.0.0.1:1/mcp"}},
	 "presets": [{"id": "p-00000001", "name": "Yui", "chat_id": "yui-00000001", "mcp": ["gone"]}]}`)
	changed := make(chan string, 16)
	m := mcp.NewManager(mcp.Options{OnChange: func(n string) { changed <- n }})
	t.Cleanup(m.Close)
	m.Configure([]mcp.ServerConfig{{Name: "gone", Command: "/nonexistent/mcp-server"}, {Name: "other", URL: "http://127.0.0.1:1/mcp"}})
	m.Use("p-00000001", []string{"gone"})
	deadline := time.After(10 * time.Second)
	for st, _ := m.Status("gone"); st.State != mcp.StateFailed; st, _ = m.Status("gone") {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("state %s", st.State)
		}
	}
	sw := NewSettingsWindow(test.NewTempApp(t), appOf(b, mcpFake{b, m}), nil)
	sw.Show("")
	t.Cleanup(func() { sw.Close(); sw.jobs.Wait() })
	sw.tools.refresh()
	text := strings.Join(labels(sw.tools.list), "\n")
	if !strings.Contains(text, `failed: command "/nonexistent/mcp-server" not found`) {
		t.Fatalf("the tab shows:\n%s", text)
	}
	if !strings.Contains(text, "stopped") {
		t.Errorf("a server the preset does not use is not shown stopped:\n%s", text)
	}
	sw.tools.setUse("other", true)
	if p, _ := b.Settings.Preset("p-00000001"); len(p.MCP) != 2 || p.MCP[1] != "other" {
		t.Errorf("preset mcp %v", p.MCP)
	}
}
