package mcp

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"yui/transport"
)

// The result strings of docs/protocol/client-tools.md "The user's MCP tools".

// NotAllowed is the answer of a call the user's permission refused.
func NotAllowed(tool string) string { return "error: the user did not allow " + tool }

// NotRunning is the answer of a call to a server that is not running.
func NotRunning(server string) string {
	return "error: tool server " + strconv.Quote(server) + " is not running"
}

// NoReply is the answer of a call the server did not answer in time.
func NoReply(server string, wait time.Duration) string {
	return "error: no reply from tool server " + strconv.Quote(server) + " within " +
		strconv.FormatFloat(wait.Seconds(), 'f', -1, 64) + " s"
}

// toResult turns a server's answer into the tool result: its text
// content joined with newlines, its images beside it (the request
// transports fit them with the JPEG fitter, tools/imagefit), structured
// content as compact JSON; a result marked isError answers
// "error: <its text>". Content of other kinds (audio, resources) is named
// in the text so the model knows it was there.
func toResult(r *mcp.CallToolResult) transport.ToolResult {
	var texts []string
	var images []transport.Image
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			texts = append(texts, c.Text)
		case *mcp.ImageContent:
			if len(c.Data) > 0 {
				images = append(images, transport.Image{MIME: c.MIMEType, Data: c.Data})
			}
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				texts = append(texts, c.Resource.Text)
			} else if c.Resource != nil {
				texts = append(texts, "[resource "+c.Resource.URI+"]")
			}
		case *mcp.ResourceLink:
			texts = append(texts, "[resource "+c.URI+"]")
		case *mcp.AudioContent:
			texts = append(texts, "[audio "+c.MIMEType+" left out]")
		}
	}
	if r.StructuredContent != nil && len(texts) == 0 {
		// Servers usually repeat structured content as text; when they do
		// not, the model gets it as compact JSON.
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			texts = append(texts, string(b))
		}
	}
	text := strings.Join(texts, "\n")
	if r.IsError {
		if text == "" {
			text = "the tool failed"
		}
		return transport.ToolResult{Text: "error: " + text}
	}
	return transport.ToolResult{Text: text, Images: images}
}
