package app

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"time"

	"yui/pet/settings"
	"yui/tools/mcp"
	"yui/transport"
	"yui/windows/petwindow"
)

// The user's MCP servers (docs/product.md §12, tools/mcp): one Manager
// for the process, configured from the global mcp_servers; each running
// request-transport preset uses the servers its mcp setting names, and
// declares their tools at each turn (transport.Options.TurnTools). A
// push preset declares none: its backend carries its own tools.

// startMCP makes the manager and configures it from st; onChange runs
// when a server's state changes (the settings window's Tools tab follows;
// the pets see new tools at their next turn by themselves). The caller
// closes it after the sessions: no server outlives Yui.
func startMCP(st settings.Settings, log *slog.Logger, onChange func()) *mcp.Manager {
	m := mcp.NewManager(mcp.Options{Log: log.With("component", "mcp"), OnChange: func(string) { onChange() }})
	m.Configure(mcpConfigs(st))
	return m
}

// useMCP starts (or stops) the servers the session's preset uses.
func (s *session) useMCP() {
	p := s.cfg()
	if p.ChatAPI == settings.ChatAPIPush {
		s.y.mcp.Use(p.ID, nil)
		return
	}
	s.y.mcp.Use(p.ID, p.MCP)
}

// mcpConfigs are the servers of the settings in the manager's form.
func mcpConfigs(st settings.Settings) []mcp.ServerConfig {
	out := make([]mcp.ServerConfig, 0, len(st.MCPServers))
	for _, name := range slices.Sorted(maps.Keys(st.MCPServers)) {
		m := st.MCPServers[name]
		out = append(out, mcp.ServerConfig{Name: name, Command: m.Command, Args: m.Args, Env: m.Env,
			URL: m.URL, Headers: m.Headers, Timeout: time.Duration(m.TimeoutS) * time.Second})
	}
	return out
}

// mcpTools is the session's TurnTools: nil over push.
func (s *session) mcpTools() func() []transport.Tool {
	if s.cfg().ChatAPI == settings.ChatAPIPush {
		return nil
	}
	o := mcp.ToolOptions{
		Permission: func(tool string) mcp.Permission { return mcp.Permission(s.y.store.Get().MCPPermission(tool)) },
		Always:     allowMCPTool(s.y.store, s.y.log),
		Ask:        mcpAsker{s},
		Status: func(turnID, tool, state string) {
			if c := s.ctl(); c != nil {
				c.ToolStatus(turnID, tool, state)
			}
		},
	}
	return func() []transport.Tool { return s.y.mcp.Tools(s.cfg().MCP, o) }
}

// allowMCPTool saves an Always answer.
func allowMCPTool(store *settings.Store, log *slog.Logger) func(tool string) {
	return func(tool string) {
		log.Info("mcp_permission", "name", tool, "value", settings.MCPAllow)
		err := store.Update(func(st *settings.Settings) error {
			if st.MCPPermissions == nil {
				st.MCPPermissions = map[string]string{}
			}
			st.MCPPermissions[tool] = settings.MCPAllow
			return nil
		})
		if err != nil {
			log.Warn("settings_save", "err", err.Error())
		}
	}
}

// mcpAsker asks on the session's pet.
type mcpAsker struct{ s *session }

func (a mcpAsker) Ask(ctx context.Context, q mcp.Question) mcp.Answer {
	got := make(chan petwindow.ToolAnswer, 1)
	dismiss := a.s.win.AskTool(q.Tool, q.Summary, func(v petwindow.ToolAnswer) { got <- v })
	select {
	case v := <-got:
		switch v {
		case petwindow.ToolAllowOnce:
			return mcp.AllowedOnce
		case petwindow.ToolAllowAlways:
			return mcp.AllowedAlways
		}
		return mcp.Denied
	case <-ctx.Done():
		dismiss()
		return mcp.Denied
	}
}

// MCP is the manager, for the settings window's Tools tab.
func (y *yui) MCP() *mcp.Manager { return y.mcp }
