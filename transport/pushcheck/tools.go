package pushcheck

import (
	"encoding/json"
	"time"

	"yui/transport/toolcall"
)

// toolDecl is one hello.tools entry, in the OpenAI function-tool shape.
type toolDecl struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// clientTool is a tool the checker declares: its schema as docs/protocol/client-tools.md
// gives it, the backend adapter's wait from the limits table, and the
// answer the checker gives a valid call.
type clientTool struct {
	decl    toolDecl
	wait    time.Duration
	answer  string
	checker *toolcall.Schema
}

func newTool(name, desc, params string, wait time.Duration, answer string) clientTool {
	s, err := toolcall.Compile(json.RawMessage(params))
	if err != nil {
		panic("pushcheck: schema of " + name + ": " + err.Error()) // a typo in the table below
	}
	return clientTool{
		decl:    toolDecl{Type: "function", Function: toolFunction{Name: name, Description: desc, Parameters: json.RawMessage(params)}},
		wait:    wait,
		answer:  answer,
		checker: s,
	}
}

// clientTools are the five tools of docs/protocol/client-tools.md, declared as main
// declares them under Tauri. rate_relation comes first: a backend that
// calls the first tool it is offered then waits the shortest wait.
var clientTools = []clientTool{
	newTool("rate_relation", "Record how this exchange changed your relationship with the user",
		`{"type":"object","properties":{"delta":{"type":"integer","minimum":-3,"maximum":3},"reason":{"type":"string","maxLength":200}},"required":["delta"],"additionalProperties":false}`,
		7*time.Second, "ok: relation 51/100"),
	newTool("address_character", "Say something to another character on this desktop",
		`{"type":"object","properties":{"character":{"type":"string","description":"The other character's name"},"text":{"type":"string","maxLength":2000}},"required":["character","text"],"additionalProperties":false}`,
		7*time.Second, `error: no character named "the checker"`),
	newTool("look", "Read body state, perch targets, or a display screenshot; screen requests require user permission",
		`{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]},"monitor":{"type":"integer","description":"For screen: the display number used by body_action.monitor; omit for the character's display"}},"required":["at"],"additionalProperties":false}`,
		7*time.Second, `{"monitor":0,"x":1510,"y":820,"width":192,"height":256,"perch":null,"emotion_id":"happy","motion_id":"idle","visible":true}`),
	newTool("body_action", "Move the character on the desktop",
		`{"type":"object","properties":{"action":{"type":"string","enum":["sit_on_window","perch","walk_to","move_to","go_home","hide","show"]},"app":{"type":"string","description":"sit_on_window: the application or window title to sit on"},"target_id":{"type":"string","description":"perch: an id from look perch_targets"},"monitor":{"type":"integer"},"x":{"type":"integer"},"y":{"type":"integer"}},"required":["action"],"additionalProperties":false}`,
		20*time.Second, "ok: at 1510,820 on display 0"),
	newTool("browser", "Open a web page in a private headless browser and read it or take a screenshot",
		`{"type":"object","properties":{"action":{"type":"string","enum":["read","screenshot"]},"url":{"type":"string"}},"required":["action","url"],"additionalProperties":false}`,
		40*time.Second, "Example Domain\nThis domain is for use in documentation examples."),
}

// toolDecls returns the hello.tools list.
func toolDecls() []toolDecl {
	out := make([]toolDecl, len(clientTools))
	for i, t := range clientTools {
		out[i] = t.decl
	}
	return out
}

// findTool returns the declared tool called name.
func findTool(name string) (clientTool, bool) {
	for _, t := range clientTools {
		if t.decl.Function.Name == name {
			return t, true
		}
	}
	return clientTool{}, false
}

// declared reports whether name is among the tools of a hello.
func declared(h Hello, name string) bool {
	for _, t := range h.Tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}

// clientAnswer is what the client answers a readable call: the generic
// errors of docs/protocol/push-transport.md for an undeclared tool or bad arguments,
// else the tool's canned result.
func clientAnswer(h Hello, c *callIn) string {
	if !declared(h, c.Name) {
		return toolcall.ErrUnknownTool
	}
	t, _ := findTool(c.Name)
	if msg := t.checker.Check(c.Args); msg != "" {
		return msg
	}
	return t.answer
}

// backendWait is the backend adapter's wait for a tool, as the limits
// table gives it or as cfg overrides it.
func (c *Config) backendWait(name string) time.Duration {
	if w, ok := c.ToolWaits[name]; ok {
		return w
	}
	if t, ok := findTool(name); ok {
		return t.wait
	}
	return 7 * time.Second
}
