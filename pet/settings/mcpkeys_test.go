package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The MCP values of mcpKeyFile, each distinct so that the file can be
// searched for it, by the keyring entry that holds it (keys.go).
var testMCP = map[string]string{
	"mcp/home/header/Authorization": "Bearer hdr-5e6f7a8b9c0d",
	"mcp/home/header/X-Team":        "team-1a2b3c4d",
	"mcp/files/env/NOTES_TOKEN":     "env-tok-9f8e7d6c5b4a",
}

// mcpKeyFile writes a settings file with one preset and two MCP servers,
// one remote with two headers, one local with an env value.
func mcpKeyFile(t *testing.T, dir string) {
	t.Helper()
	data := `{"version": 2, "active_preset": "p-00000001", "presets": [
  {"id": "p-00000001", "name": "Yui", "chat_api": "chat_completions", "chat_base_url": "https://api.example.com/v1",
   "chat_id": "yui-00000001", "mcp": ["home", "files"]}],
 "mcp_servers": {
  "home": {"url": "http://127.0.0.1:8123/mcp", "headers": {"Authorization": "Bearer hdr-5e6f7a8b9c0d", "X-Team": "team-1a2b3c4d"}},
  "files": {"command": "notes-server", "env": {"NOTES_TOKEN": "env-tok-9f8e7d6c5b4a"}}}}
`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mcpSecretOf returns the value the settings hold for an entry of testMCP.
func mcpSecretOf(st Settings, entry string) string {
	rest, _ := strings.CutPrefix(entry, "mcp/")
	server, field, _ := strings.Cut(rest, "/")
	return secret{server: server, field: field}.get(&st)
}

// checkMCP checks that the store holds every value of want in memory.
func checkMCP(t *testing.T, s *Store, want map[string]string, when string) {
	t.Helper()
	st := s.Get()
	for entry, v := range want {
		if got := mcpSecretOf(st, entry); got != v {
			t.Errorf("%s: %s is %q, want %q", when, entry, got, v)
		}
	}
}

// fileMCP returns the entries of testMCP whose value the settings file
// holds in clear.
func fileMCP(t *testing.T, s *Store) []string {
	t.Helper()
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	var in []string
	for entry, v := range testMCP {
		if strings.Contains(string(data), v) {
			in = append(in, entry)
		}
	}
	slices.Sort(in)
	return in
}

// fileServer returns server as the settings file holds it.
func fileServer(t *testing.T, s *Store, server string) MCPServer {
	t.Helper()
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		MCPServers map[string]MCPServer `json:"mcp_servers"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.MCPServers[server]
}

// TestMCPSecretsMoveAndReadBack: every header and env value moves into the
// keyring, the file keeps the names with "" and the entries in the
// server's keyring object, a reopen reads them back, and the log redactor
// still knows them.
func TestMCPSecretsMoveAndReadBack(t *testing.T) {
	dir := t.TempDir()
	mcpKeyFile(t, dir)
	ring := &memRing{}
	s, _ := open(t, dir)
	s.UseKeyring(ring, "")
	checkMCP(t, s, testMCP, "after moving")
	if in := fileMCP(t, s); len(in) != 0 {
		t.Errorf("values left in the file: %v", in)
	}
	home := fileServer(t, s, "home")
	if home.Headers["Authorization"] != "" || home.Keyring["header/Authorization"] != "mcp/home/header/Authorization" {
		t.Errorf("file form of home = %+v", home)
	}
	for entry, want := range testMCP {
		if got, err := ring.Get(entry); err != nil || got != want {
			t.Errorf("keyring entry %s = %q, %v", entry, got, err)
		}
	}
	s.Close()

	s2, _ := open(t, dir)
	if got := s2.Get().MCPServers["home"].Headers["Authorization"]; got != "" {
		t.Errorf("before UseKeyring the header is %q", got)
	}
	s2.UseKeyring(ring, "")
	checkMCP(t, s2, testMCP, "after reopening")
	if got := s2.Get().MCPServers["home"].Keyring; got != nil {
		t.Errorf("in memory the server names entries: %v", got)
	}
	redacted := s2.Get().Secrets()
	for _, v := range []string{"hdr-5e6f7a8b9c0d", "team-1a2b3c4d", "env-tok-9f8e7d6c5b4a"} {
		if !slices.Contains(redacted, v) {
			t.Errorf("Secrets() lacks %q: %q", v, redacted)
		}
	}
}

// TestMCPSecretRefused: a keyring that refuses leaves the values in the
// file and in memory; nothing is lost.
func TestMCPSecretRefused(t *testing.T) {
	dir := t.TempDir()
	mcpKeyFile(t, dir)
	s, _ := open(t, dir)
	s.UseKeyring(&memRing{refuseN: 1}, "")
	checkMCP(t, s, testMCP, "after the refusal")
	if in := fileMCP(t, s); len(in) != len(testMCP) {
		t.Errorf("file holds %v in clear, want all %d", in, len(testMCP))
	}
	if where, _ := s.KeysWhere(); where != KeysInFile {
		t.Errorf("KeysWhere = %s", where)
	}
}

// TestMCPSecretRemoved: a header the user removes and a server deleted
// leave the keyring; the others stay.
func TestMCPSecretRemoved(t *testing.T) {
	dir := t.TempDir()
	mcpKeyFile(t, dir)
	ring := &memRing{}
	s, _ := open(t, dir)
	s.UseKeyring(ring, "")
	err := s.Update(func(st *Settings) error {
		delete(st.MCPServers["home"].Headers, "X-Team")
		delete(st.MCPServers, "files")
		st.Presets[0].MCP = []string{"home"}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close() // the keyring calls are made off the caller's goroutine, by Close at the latest
	for _, entry := range []string{"mcp/home/header/X-Team", "mcp/files/env/NOTES_TOKEN"} {
		if _, err := ring.Get(entry); err == nil {
			t.Errorf("entry %s is still in the keyring", entry)
		}
	}
	if got, err := ring.Get("mcp/home/header/Authorization"); err != nil || got != testMCP["mcp/home/header/Authorization"] {
		t.Errorf("the kept header's entry = %q, %v", got, err)
	}
	if k := fileServer(t, s, "home").Keyring; len(k) != 1 {
		t.Errorf("home's keyring object = %v", k)
	}
}

// TestMCPSecretHandEdited: a value the user writes into the file by hand
// wins over the entry the file still names, and moves into the keyring
// in its turn. A start without a keyring keeps the entries named.
func TestMCPSecretHandEdited(t *testing.T) {
	dir := t.TempDir()
	mcpKeyFile(t, dir)
	ring := &memRing{}
	s, _ := open(t, dir)
	s.UseKeyring(ring, "")
	s.Close()

	// A start without a keyring: the values are unknown, the file keeps
	// naming their entries through a save.
	s2, _ := open(t, dir)
	s2.UseKeyring(nil, "no session bus")
	if err := s2.Update(func(st *Settings) error { st.MCPPermissions = map[string]string{"home__x": MCPAllow}; return nil }); err != nil {
		t.Fatal(err)
	}
	s2.Close()
	if k := fileServer(t, s2, "home").Keyring; k["header/Authorization"] != "mcp/home/header/Authorization" {
		t.Fatalf("without a keyring the file lost the entry: %v", k)
	}

	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	const hand = "Bearer by-hand-0f1e2d3c"
	edited := strings.Replace(string(data), `"Authorization": ""`, `"Authorization": "`+hand+`"`, 1)
	if edited == string(data) {
		t.Fatalf("no empty Authorization in the file:\n%s", data)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	s3, _ := open(t, dir)
	s3.UseKeyring(ring, "")
	want := map[string]string{
		"mcp/home/header/Authorization": hand,
		"mcp/home/header/X-Team":        testMCP["mcp/home/header/X-Team"],
		"mcp/files/env/NOTES_TOKEN":     testMCP["mcp/files/env/NOTES_TOKEN"],
	}
	checkMCP(t, s3, want, "after the hand edit")
	if got, _ := ring.Get("mcp/home/header/Authorization"); got != hand {
		t.Errorf("keyring entry after the hand edit = %q", got)
	}
	if data, _ := os.ReadFile(s3.Path()); strings.Contains(string(data), hand) {
		t.Errorf("the hand-edited value stayed in the file")
	}
}
