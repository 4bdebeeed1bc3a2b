package settings

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestMCPSettings(t *testing.T) {
	s := defaultSettings()
	p := defaultPreset()
	p.ID, p.ChatID, p.Name = "p-1", "yui-00000000", "Yui"
	in := `{"mcp_servers": {
	  "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"], "env": {"TOKEN": "s3cret-env"} },
	  "home":  { "url": "http://127.0.0.1:8123/mcp", "headers": { "Authorization": "Bearer abcdef" }, "timeout_s": 60 } },
	  "mcp_permissions": { "files__read_text_file": "allow", "files__write_file": "ask" }}`
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	s.Presets, s.ActivePreset = []Preset{p}, "p-1"
	s.Presets[0].MCP = []string{"files", "home"}
	if err := s.Validate(); err != nil {
		t.Fatalf("valid settings: %v", err)
	}
	if s.MCPServers["home"].TimeoutS != 60 || s.MCPServers["files"].Args[2] != "/home/me/notes" {
		t.Errorf("decoded %+v", s.MCPServers)
	}
	if s.MCPPermission("files__read_text_file") != MCPAllow || s.MCPPermission("files__other") != MCPAsk {
		t.Error("permissions")
	}
	sec := s.Secrets()
	if !slices.Contains(sec, "abcdef") || !slices.Contains(sec, "s3cret-env") {
		t.Errorf("secrets %v", sec)
	}
	c := s.Clone()
	c.MCPServers["files"].Env["TOKEN"] = "changed"
	c.Presets[0].MCP[0] = "x"
	if s.MCPServers["files"].Env["TOKEN"] != "s3cret-env" || s.Presets[0].MCP[0] != "files" {
		t.Error("Clone shares MCP maps")
	}
	out, _ := json.Marshal(s)
	if !strings.Contains(string(out), `"mcp_servers"`) || !strings.Contains(string(out), `"mcp":["files","home"]`) {
		t.Errorf("encoded %s", out)
	}

	s.MCPServers["bad"] = MCPServer{URL: "ftp://x", TimeoutS: 9999}
	s.MCPServers["none"] = MCPServer{}
	s.MCPPermissions["files__x"] = "maybe"
	s.Presets[0].MCP = append(s.Presets[0].MCP, "ghost")
	err := s.Validate()
	ve, ok := err.(*ValidationError)
	if !ok {
		t.Fatalf("error %v", err)
	}
	var fields []string
	for _, f := range ve.Fields {
		fields = append(fields, f.PresetID+":"+f.Field)
	}
	for _, want := range []string{":mcp_servers.bad.url", ":mcp_servers.bad.timeout_s", ":mcp_servers.none.command", ":mcp_permissions.files__x", "p-1:mcp"} {
		if !slices.Contains(fields, want) {
			t.Errorf("fields %v, want %s", fields, want)
		}
	}
}

func TestMCPImport(t *testing.T) {
	claude := `{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
	  "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}}}, "globalShortcut": "x"}`
	got, err := ParseMCPFile([]byte(claude))
	if err != nil || len(got) != 2 || got["files"].Command != "npx" {
		t.Fatalf("parsed %v, %v", got, err)
	}
	if _, err := ParseMCPFile([]byte(`{"mcpServers": {"bad": {}}}`)); err == nil {
		t.Error("a server without command or url was accepted")
	}
	if _, err := ParseMCPFile([]byte(`{}`)); err == nil {
		t.Error("a file without servers was accepted")
	}
	s := Settings{Presets: []Preset{{ID: "p-1"}}, MCPServers: map[string]MCPServer{"files": {Command: "mine"}}}
	added := s.AddMCPServers(got, "p-1")
	if !slices.Equal(added, []string{"remote"}) || s.MCPServers["files"].Command != "mine" || !slices.Equal(s.Presets[0].MCP, []string{"remote"}) {
		t.Errorf("added %v, servers %v, preset mcp %v", added, s.MCPServers, s.Presets[0].MCP)
	}
	if p := MCPImportPaths("/home/me", `C:\Users\me\AppData\Roaming`); len(p) != 3 || !strings.HasSuffix(p[0], "claude_desktop_config.json") {
		t.Errorf("paths %v", p)
	}
}
