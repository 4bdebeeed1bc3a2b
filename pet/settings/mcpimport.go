package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// MCPImportPaths are where Claude Desktop and Cursor keep their MCP
// servers (docs/mcp.md): Claude Desktop's file on Linux and on Windows
// (under %APPDATA%), and Cursor's. home and appData may be "".
func MCPImportPaths(home, appData string) []string {
	var out []string
	if home != "" {
		out = append(out, filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"),
			filepath.Join(home, ".cursor", "mcp.json"))
	}
	if appData != "" {
		out = append(out, filepath.Join(appData, "Claude", "claude_desktop_config.json"))
	}
	return out
}

// ParseMCPFile reads the mcpServers object of a Claude Desktop or Cursor
// file. Each server is checked like mcp_servers; an invalid one is an
// error naming it.
func ParseMCPFile(data []byte) (map[string]MCPServer, error) {
	var f struct {
		MCPServers map[string]MCPServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, invalid(CodeNotMCPFile, "Detail", err.Error())
	}
	if len(f.MCPServers) == 0 {
		return nil, invalid(CodeNoMCPServers)
	}
	probe := Settings{MCPServers: f.MCPServers}
	if errs := probe.validateMCP(); len(errs) > 0 {
		return nil, errs[0]
	}
	return f.MCPServers, nil
}

// ReadMCPFile reads and parses path.
func ReadMCPFile(path string) (map[string]MCPServer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseMCPFile(data)
}

// AddMCPServers adds servers to s under names it does not hold yet, and
// lists them in preset presetID's mcp; it returns the names added.
func (s *Settings) AddMCPServers(servers map[string]MCPServer, presetID string) []string {
	if s.MCPServers == nil {
		s.MCPServers = map[string]MCPServer{}
	}
	var added []string
	for _, name := range sortedKeys(servers) {
		if _, have := s.MCPServers[name]; have {
			continue
		}
		m := servers[name].Clone()
		m.Keyring = nil // another app's file names no entry of this keyring
		s.MCPServers[name] = m
		added = append(added, name)
	}
	if p, ok := s.Preset(presetID); ok {
		for _, n := range added {
			p.MCP = append(p.MCP, n)
		}
	}
	return added
}
