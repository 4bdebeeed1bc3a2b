//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"yui/cmd/yui/e2e/harness"
)

// The user's MCP tools (docs/product.md §12, docs/protocol/client-tools.md)
// with the real reference servers the Makefile's mcp-servers step
// installs (YUI_MCP_SERVERS) and a fake Chat Completions server that calls
// the tool a turn names: "call <tool> <json arguments>".

// mcpServers is the folder holding the reference servers' node_modules.
func mcpServers(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("YUI_MCP_SERVERS")
	if dir == "" {
		t.Skip("YUI_MCP_SERVERS is not set (make e2e sets it)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	return dir
}

func mcpScript(dir, pkg string) string {
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
}

// mcpModel is the fake model server: a user message "call NAME ARGS"
// makes a tool call; a tool result is recorded and answered "Done.".
type mcpModel struct {
	mu      sync.Mutex
	tools   [][]string // each request's declared tool names
	results []string   // each tool result, with the request body after it
	bodies  []string
	calls   int
}

func (m *mcpModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []map[string]any `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Function.Name)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(v string) { fmt.Fprintf(w, "data: %s\n\n", v); w.(http.Flusher).Flush() }
	text := func(s string) {
		b, _ := json.Marshal(s)
		send(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":` + string(b) + `},"finish_reason":null}]}`)
		send(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		send("[DONE]")
	}
	m.mu.Lock()
	m.tools = append(m.tools, names)
	m.bodies = append(m.bodies, string(body))
	// The newest tool message since the last user message is a result.
	for i := len(req.Messages) - 1; i >= 0; i-- {
		msg := req.Messages[i]
		if msg["role"] == "tool" {
			c, _ := msg["content"].(string)
			m.results = append(m.results, c)
			m.mu.Unlock()
			text("Done.")
			return
		}
		if msg["role"] == "user" {
			break
		}
	}
	last, _ := json.Marshal(req.Messages[len(req.Messages)-1]["content"])
	var content any
	_ = json.Unmarshal(last, &content)
	s := fmt.Sprint(content)
	i := strings.LastIndex(s, "call ")
	if i < 0 {
		m.mu.Unlock()
		text("Hi.")
		return
	}
	m.calls++
	id := "call_" + strconv.Itoa(m.calls)
	m.mu.Unlock()
	f := strings.SplitN(strings.TrimSpace(s[i+5:]), " ", 2)
	args := "{}"
	if len(f) == 2 {
		args = s[i+5+len(f[0])+1:]
		if j := strings.LastIndex(args, "}"); j >= 0 {
			args = args[:j+1]
		}
	}
	a, _ := json.Marshal(args)
	send(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"` + id + `","type":"function","function":{"name":"` + f[0] + `","arguments":` + string(a) + `}}]},"finish_reason":null}]}`)
	send(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	send("[DONE]")
}

// result waits for the nth tool result (1-based).
func (m *mcpModel) result(t *testing.T, n int) string {
	t.Helper()
	var got string
	harness.WaitFor(t, 60*time.Second, fmt.Sprintf("tool result %d at the model", n), func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		if len(m.results) >= n {
			got = m.results[n-1]
			return true
		}
		return false
	})
	return got
}

func (m *mcpModel) lastBody() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bodies[len(m.bodies)-1]
}

func startMCPModel(t *testing.T) (*mcpModel, string) {
	t.Helper()
	m := &mcpModel{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: m}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return m, "http://" + l.Addr().String() + "/v1"
}

// writeMCPSettings writes one chat_completions preset using servers.
func writeMCPSettings(t *testing.T, cfg, base string, servers map[string]any, perms map[string]string) {
	t.Helper()
	var names []string
	for n := range servers {
		names = append(names, n)
	}
	st := map[string]any{"version": 1, "active_preset": "p-mcp00001", "log_level": "debug",
		"mcp_servers": servers, "mcp_permissions": perms,
		"presets": []any{map[string]any{
			"id": "p-mcp00001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
			"chat_base_url": base, "model": "m", "chat_id": "yui-0000mcp0", "mcp": names,
		}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// send types a turn into the open composer without waiting for its end
// (a prompt may hold it).
func send(a *harness.App, text string) {
	a.T.Helper()
	turns := a.Count("turn", nil)
	harness.WaitFor(a.T, 40*time.Second, "the composer unlocked", func() bool { return a.Count("pet_composer_unlocked", nil) >= turns })
	a.D.Run(a.T, "xdotool", "windowfocus", "--sync", a.D.WindowID(a.T, "Yui"))
	a.D.Run(a.T, "xdotool", "type", "--delay", "8", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
	harness.WaitFor(a.T, 10*time.Second, "the turn "+text, func() bool { return a.Count("turn", nil) > turns })
}

// answerPrompt presses key in the tool prompt once it shows.
func answerPrompt(a *harness.App, n int, key string) {
	a.T.Helper()
	harness.WaitFor(a.T, 20*time.Second, "the tool prompt", func() bool { return a.Count("pet_tool_prompt", nil) >= n })
	id := a.D.WindowID(a.T, "Yui — tool permission")
	a.D.Run(a.T, "xdotool", "windowfocus", "--sync", id)
	a.D.Run(a.T, "xdotool", "key", key)
}

// serverPIDs are the MCP servers serving marker: node processes one of
// whose arguments is marker itself. The match is on the arguments, not on
// the command line's text, so that it holds wherever the repository lies
// (a clone in a folder named yui puts "yui" in the server's script path).
func serverPIDs(marker string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && servesArg(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), marker) {
			out = append(out, pid)
		}
	}
	return out
}

// servesArg reports whether argv runs node with marker as an argument.
func servesArg(argv []string, marker string) bool {
	if len(argv) < 2 || filepath.Base(argv[0]) != "node" {
		return false
	}
	return slices.Contains(argv[1:], marker)
}

func TestMCPFilesystem(t *testing.T) {
	dir := mcpServers(t)
	d := harness.StartXvfb(t, 1280, 800)
	model, base := startMCPModel(t)
	served := t.TempDir()
	if err := os.WriteFile(filepath.Join(served, "notes.txt"), []byte("milk, eggs"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := t.TempDir()
	writeMCPSettings(t, cfg, base, map[string]any{
		"files": map[string]any{"command": "node", "args": []string{mcpScript(dir, "server-filesystem"), served}},
		"gone":  map[string]any{"command": "/nonexistent/mcp-server"},
	}, map[string]string{"files__read_text_file": "allow", "files__list_directory": "deny"})

	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "mcp_server", map[string]string{"name": "files", "state": "running"})
	// A server that cannot start says why.
	gone := a.WaitRecord(30*time.Second, "mcp_server", map[string]string{"name": "gone", "state": "failed"})
	if !strings.Contains(gone.Str("err"), "not found") {
		t.Errorf("the failed server's reason: %q", gone.Str("err"))
	}
	a.OpenComposer()
	send(a, `call files__read_text_file {"path":"`+filepath.Join(served, "notes.txt")+`"}`)
	if got := model.result(t, 1); got != "milk, eggs" {
		t.Fatalf("read_text_file → %q", got)
	}
	model.mu.Lock()
	declared := strings.Join(model.tools[0], " ")
	model.mu.Unlock()
	for _, n := range []string{"files__read_text_file", "files__write_file", "files__list_directory"} {
		if !strings.Contains(declared, n) {
			t.Fatalf("declared %s, want %s", declared, n)
		}
	}
	a.WaitRecord(10*time.Second, "mcp_call", map[string]string{"name": "files__read_text_file", "ok": "true"})

	// deny never reaches the server.
	send(a, `call files__list_directory {"path":"`+served+`"}`)
	if got := model.result(t, 2); got != "error: the user did not allow files__list_directory" {
		t.Fatalf("deny → %q", got)
	}
	if a.Count("mcp_call", map[string]string{"name": "files__list_directory"}) != 0 {
		t.Fatal("a denied tool reached the server")
	}

	// ask: Allow once writes.
	out := filepath.Join(served, "out.txt")
	send(a, `call files__write_file {"path":"`+out+`","content":"hello"}`)
	answerPrompt(a, 1, "Return")
	if got := model.result(t, 3); strings.HasPrefix(got, "error:") {
		t.Fatalf("allowed write → %q", got)
	}
	if b, _ := os.ReadFile(out); string(b) != "hello" {
		t.Fatalf("the file holds %q", b)
	}
	// Deny answers the denial and writes nothing.
	denied := filepath.Join(served, "denied.txt")
	send(a, `call files__write_file {"path":"`+denied+`","content":"no"}`)
	answerPrompt(a, 2, "Escape")
	if got := model.result(t, 4); got != "error: the user did not allow files__write_file" {
		t.Fatalf("denied write → %q", got)
	}
	// No answer denies after 30 s.
	send(a, `call files__write_file {"path":"`+denied+`","content":"late"}`)
	harness.WaitFor(t, 20*time.Second, "the third prompt", func() bool { return a.Count("pet_tool_prompt", nil) >= 3 })
	if got := model.result(t, 5); got != "error: the user did not allow files__write_file" {
		t.Fatalf("unanswered write → %q", got)
	}
	if _, err := os.Stat(denied); err == nil {
		t.Fatal("a denied write wrote the file")
	}

	// A killed server is restarted and the next call works.
	pids := serverPIDs(served)
	if len(pids) == 0 {
		t.Fatal("no server process")
	}
	runs := a.Count("mcp_server", map[string]string{"name": "files", "state": "running"})
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGKILL)
	}
	harness.WaitFor(t, 30*time.Second, "the server running again", func() bool {
		return a.Count("mcp_server", map[string]string{"name": "files", "state": "running"}) > runs
	})
	send(a, `call files__read_text_file {"path":"`+filepath.Join(served, "notes.txt")+`"}`)
	if got := model.result(t, 6); got != "milk, eggs" {
		t.Fatalf("after the restart → %q", got)
	}

	// Quitting leaves no server process.
	a.Proc.Stop()
	harness.WaitFor(t, 10*time.Second, "no server process after quit", func() bool { return len(serverPIDs(served)) == 0 })
}

func TestMCPEverythingOverHTTP(t *testing.T) {
	dir := mcpServers(t)
	d := harness.StartXvfb(t, 1280, 800)
	model, base := startMCPModel(t)
	port := harness.FreePort(t)
	srv := exec.Command("node", mcpScript(dir, "server-everything"), "streamableHttp")
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	harness.WaitFor(t, 20*time.Second, "server-everything listening", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	cfg := t.TempDir()
	writeMCPSettings(t, cfg, base, map[string]any{"everything": map[string]any{"url": url, "timeout_s": 20}},
		map[string]string{"everything__echo": "allow", "everything__get-tiny-image": "allow", "everything__trigger-long-running-operation": "allow"})
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "mcp_server", map[string]string{"name": "everything", "state": "running"})
	a.OpenComposer()
	send(a, `call everything__echo {"message":"over http"}`)
	if got := model.result(t, 1); !strings.Contains(got, "over http") {
		t.Fatalf("echo → %q", got)
	}
	send(a, `call everything__get-tiny-image {}`)
	model.result(t, 2)
	if body := model.lastBody(); !strings.Contains(body, "data:image/") {
		t.Fatalf("the image did not reach the model: %.400s", body)
	}

	// Stop during a long call cancels it: the call ends at once, not
	// after its 30 s.
	send(a, `call everything__trigger-long-running-operation {"duration":30,"steps":3}`)
	harness.WaitFor(t, 20*time.Second, "the long call running", func() bool {
		_, ok := harness.FindRecord(a.Log(), "pet_pill", map[string]string{"tool": "everything__trigger-long-running-operation running"})
		return ok
	})
	win := a.PetRect()
	harness.Click(t, d, win.Max.X-28, win.Min.Y+482)
	a.WaitRecord(10*time.Second, "pet_composer_stop", nil)
	call := a.WaitRecord(15*time.Second, "mcp_call", map[string]string{"name": "everything__trigger-long-running-operation"})
	if ms, _ := call["ms"].(float64); call["ok"] != false || ms > 20000 {
		t.Fatalf("the stopped call: %v", call)
	}
}
