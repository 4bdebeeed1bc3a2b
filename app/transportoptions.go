package app

import (
	"context"
	"strings"

	"yui/tools/imagefit"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/localserver"
)

// transportOptions are what a session's new connection is made with
// (transport/dial's New): the preset as running, its stores, the
// connection's toolset tools, and what the transport asks of the app while
// it builds a turn.
func (s *session) transportOptions(tools []transport.Tool) transport.Options {
	p := s.cfg()
	return transport.Options{
		ChatBaseURL:     p.ChatBaseURL,
		Key:             p.Key,
		ChatID:          p.ChatID,
		Model:           p.Model,
		ReasoningEffort: p.ReasoningEffort,
		Card:            s.card(),
		ContextWindow:   p.ContextWindow,
		Conversation:    s.stores.memory,
		Facts:           s.facts(), // long-term memory (facts.go)
		Vocabulary:      s.pack.Vocabulary(),
		Tools:           tools,        // the connection's toolset (tools.go)
		TurnTools:       s.mcpTools(), // the user's MCP tools (mcp.go)

		FitImages:   imagefit.Fit,
		Probe:       true,
		Delegations: s.stores.delegation,
		SpeechOwed: func() bool {
			if c := s.cur.Load(); c != nil {
				return c.ctl.SpeechOwed()
			}
			return false
		},
		Server: serverInfo(p.ChatBaseURL), // names a local server
		Clock:  clock.Real{},
		Logger: s.log,
	}
}

// card is the persona text the request transports send: the preset's,
// or with none written, its character pack's.
func (s *session) card() string {
	if c := s.cfg().Card; strings.TrimSpace(c) != "" {
		return c
	}
	return s.pack.Card
}

// serverInfo is a request transport's Options.Server: it names a local
// server by what it answers, with the hint for one with no chat model.
func serverInfo(base string) func(ctx context.Context) transport.ServerInfo {
	return func(ctx context.Context) transport.ServerInfo {
		k := localserver.Describe(ctx, base, localserver.DefaultTimeout)
		if k == "" {
			return transport.ServerInfo{}
		}
		return transport.ServerInfo{Name: string(k), NoModelHint: localserver.NoModelHint(k), KeyHint: localserver.APIKeyHint(k),
			NoneLoaded: localserver.LoadsOne(k)}
	}
}
