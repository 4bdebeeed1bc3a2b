package settings

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"yui/pet/secrets"
)

// The keys of keyFile, each a distinct string so that the file can be
// searched for every one of them.
var testKeys = map[string]string{
	"p-00000001/key":        "sk-chat-A-1f2e3d4c5b6a",
	"p-00000001/speech.key": "sk-tts-A-7a8b9c0d1e2f",
	"p-00000001/voice.key":  "sk-stt-A-3c4d5e6f7a8b",
	"p-00000002/key":        "sk-chat-B-9e8d7c6b5a4f",
}

// keyFile writes a settings file whose two presets hold the test keys.
func keyFile(t *testing.T, dir string) {
	t.Helper()
	data := fmt.Sprintf(`{"version": 2, "active_preset": "p-00000001", "presets": [
  {"id": "p-00000001", "name": "Yui", "chat_api": "chat_completions", "chat_base_url": "https://api.example.com/v1",
   "key": %q, "chat_id": "yui-00000001",
   "speech": {"engine": "openai", "base_url": "https://tts.example.com/v1", "key": %q, "rate": 1, "volume": 1},
   "voice": {"mode": "push_to_talk", "engine": "openai", "base_url": "https://stt.example.com/v1", "key": %q}},
  {"id": "p-00000002", "name": "Mochi", "chat_api": "push", "chat_base_url": "wss://agent.example.com", "key": %q, "chat_id": "yui-00000002"}
]}
`, testKeys["p-00000001/key"], testKeys["p-00000001/speech.key"], testKeys["p-00000001/voice.key"], testKeys["p-00000002/key"])
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkKeys checks that the store holds every test key in memory.
func checkKeys(t *testing.T, s *Store, when string) {
	t.Helper()
	st := s.Get()
	for ref, want := range testKeys {
		id, field, _ := strings.Cut(ref, "/")
		p, ok := st.Preset(id)
		if !ok {
			t.Fatalf("%s: no preset %s", when, id)
		}
		if got := *keyOf(p, field); got != want {
			t.Errorf("%s: %s is %q, want %q", when, ref, got, want)
		}
	}
}

// fileKeys returns the test keys the settings file holds in clear.
func fileKeys(t *testing.T, s *Store) []string {
	t.Helper()
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	var in []string
	for ref, k := range testKeys {
		if strings.Contains(string(data), k) {
			in = append(in, ref)
		}
	}
	return in
}

// memRing is a keyring in memory that can refuse from the nth Set on.
type memRing struct {
	mu      sync.Mutex
	m       map[string]string
	sets    int
	refuseN int // 0: never
}

func (r *memRing) Get(e string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[e]
	if !ok {
		return "", errors.New("not found")
	}
	return v, nil
}

func (r *memRing) Set(e, v string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sets++
	if r.refuseN > 0 && r.sets >= r.refuseN {
		return errors.New("refused")
	}
	if r.m == nil {
		r.m = map[string]string{}
	}
	r.m[e] = v
	return nil
}

func (r *memRing) Delete(e string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, e)
	return nil
}

// TestKeyringRefusesMidway: a keyring that takes the first key and refuses
// the second leaves that one and the rest in the file; nothing is lost,
// and a later start with a keyring that answers moves them all.
func TestKeyringRefusesMidway(t *testing.T) {
	dir := t.TempDir()
	keyFile(t, dir)
	s, _ := open(t, dir)
	ring := &memRing{refuseN: 2}
	s.UseKeyring(ring, "")
	checkKeys(t, s, "after the refusal")
	if where, why := s.KeysWhere(); where != KeysInFile || !strings.Contains(why, "refused") {
		t.Errorf("KeysWhere = %s %q", where, why)
	}
	if got := len(fileKeys(t, s)); got != len(testKeys)-1 {
		t.Errorf("file holds %d keys in clear, want %d (one moved)", got, len(testKeys)-1)
	}
	s.Close()

	// Next start: the moved key is read back, the others move.
	ring.refuseN = 0
	s2, _ := open(t, dir)
	s2.UseKeyring(ring, "")
	checkKeys(t, s2, "after the second start")
	if in := fileKeys(t, s2); len(in) != 0 {
		t.Errorf("keys left in the file: %v", in)
	}
	// No keyring at the next start: the file keeps naming the entries,
	// the keys are not lost, and a start with the keyring reads them.
	s2.Close()
	s3, _ := open(t, dir)
	s3.UseKeyring(nil, "no session bus")
	if where, why := s3.KeysWhere(); where != KeysInFile || why != "no session bus" {
		t.Errorf("KeysWhere without keyring = %s %q", where, why)
	}
	if err := s3.UpdatePreset("p-00000002", func(p *Preset) error { p.Name = "Mochi 2"; return nil }); err != nil {
		t.Fatal(err)
	}
	s3.Close()
	s4, _ := open(t, dir)
	s4.UseKeyring(ring, "")
	checkKeys(t, s4, "after a start without keyring")
}

// TestKeysStayInFileWithoutBus: with no session bus there is no keyring
// (and none is started): the keys stay in the file as they were.
func TestKeysStayInFileWithoutBus(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the keyring there needs no session bus")
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	ring, why := secrets.System()
	if ring != nil || why != "no session bus" {
		t.Fatalf("System() without a bus = %v, %q", ring, why)
	}
	dir := t.TempDir()
	keyFile(t, dir)
	s, _ := open(t, dir)
	s.UseKeyring(nil, why)
	if where, _ := s.KeysWhere(); where != KeysInFile {
		t.Errorf("KeysWhere = %s", where)
	}
	if note := s.KeysNote(); note != "Keys are kept in settings.json, readable only by you (no session bus)." {
		t.Errorf("KeysNote = %q", note)
	}
	checkKeys(t, s, "without a bus")
	if got := len(fileKeys(t, s)); got != len(testKeys) {
		t.Errorf("file holds %d keys, want all %d", got, len(testKeys))
	}
}

// TestKeysInSecretService runs a real Secret Service: Debian's
// gnome-keyring on a private session bus (dbus-run-session), with a new
// login keyring the test unlocks. The keys of an existing file move into
// it, no key is left in the file, a restart reads them back, a changed key
// and an MCP header move too, and a start without the bus keeps the
// entries named.
func TestKeysInSecretService(t *testing.T) {
	if os.Getenv("YUI_KEYRING_CHILD") == "" {
		runInPrivateBus(t)
		return
	}
	unlock := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets")
	unlock.Stdin = strings.NewReader("yui-test-password")
	// The daemon forks and keeps what it was given: no pipes to wait on.
	logf, err := os.Create(filepath.Join(t.TempDir(), "gnome-keyring.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	unlock.Stdout, unlock.Stderr = logf, logf
	if err := unlock.Run(); err != nil {
		t.Fatalf("gnome-keyring-daemon --unlock: %v", err)
	}

	ring, why := secrets.System()
	if ring == nil {
		t.Fatalf("no keyring on the private bus: %s", why)
	}
	dir := t.TempDir()
	keyFile(t, dir)
	s, _ := open(t, dir)
	s.UseKeyring(ring, "")
	if where, why := s.KeysWhere(); where != KeysInKeyring {
		t.Fatalf("KeysWhere = %s %q", where, why)
	}
	checkKeys(t, s, "after moving")
	if note := s.KeysNote(); !strings.Contains(note, "system keyring") {
		t.Errorf("KeysNote = %q", note)
	}
	if in := fileKeys(t, s); len(in) != 0 {
		t.Errorf("keys left in the file: %v", in)
	}
	data, _ := os.ReadFile(s.Path())
	if !strings.Contains(string(data), `"speech.key": "p-00000001/speech.key"`) {
		t.Errorf("the file does not name the entries:\n%s", data)
	}
	for ref, want := range testKeys {
		if got, err := ring.Get(ref); err != nil || got != want {
			t.Errorf("keyring entry %s = %q, %v", ref, got, err)
		}
	}

	// A key changed in the settings window moves too, off the caller's goroutine.
	testKeys["p-00000002/key"] = "sk-chat-B-NEW-0a1b2c3d"
	if err := s.UpdatePreset("p-00000002", func(p *Preset) error { p.Key = testKeys["p-00000002/key"]; return nil }); err != nil {
		t.Fatal(err)
	}
	// So does an MCP server's header (docs/mcp.md).
	const header = "Bearer mcp-hdr-4b5c6d7e"
	if err := s.Update(func(st *Settings) error {
		st.MCPServers = map[string]MCPServer{"home": {URL: "http://127.0.0.1:8123/mcp", Headers: map[string]string{"Authorization": header}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if in := fileKeys(t, s); len(in) != 0 {
		t.Errorf("the changed key stayed in the file: %v", in)
	}
	if data, _ := os.ReadFile(s.Path()); strings.Contains(string(data), header) {
		t.Errorf("the MCP header stayed in the file:\n%s", data)
	}
	if got, err := ring.Get("mcp/home/header/Authorization"); err != nil || got != header {
		t.Errorf("keyring entry of the MCP header = %q, %v", got, err)
	}

	// A restart reads them back.
	s2, _ := open(t, dir)
	s2.UseKeyring(ring, "")
	checkKeys(t, s2, "after a restart")
	if got := s2.Get().MCPServers["home"].Headers["Authorization"]; got != header {
		t.Errorf("MCP header after a restart = %q", got)
	}

	// A start without the bus: no key, but the entries stay named.
	s2.Close()
	s3, _ := open(t, dir)
	s3.UseKeyring(nil, "no session bus")
	if p, _ := s3.Preset("p-00000001"); p.Key != "" {
		t.Errorf("key without keyring = %q", p.Key)
	}
	s3.Close()
	s4, _ := open(t, dir)
	s4.UseKeyring(ring, "")
	checkKeys(t, s4, "after a start without the bus")

	// A key the user clears leaves the keyring.
	if err := s4.UpdatePreset("p-00000001", func(p *Preset) error { p.Voice.Key = ""; return nil }); err != nil {
		t.Fatal(err)
	}
	s4.Close()
	if _, err := ring.Get("p-00000001/voice.key"); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("cleared key's entry: %v", err)
	}
}

// runInPrivateBus runs TestKeysInSecretService again in a child process
// on a private session bus, with a home of its own for the keyring files.
// Without dbus-run-session or gnome-keyring-daemon it skips, but not on CI
// (CI=true), where .ci/deps.sh installs them.
func runInPrivateBus(t *testing.T) {
	for _, bin := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(bin); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing (.ci/deps.sh test installs it)", bin)
			}
			t.Skipf("%s is missing (.ci/deps.sh test installs it)", bin)
		}
	}
	home := t.TempDir()
	run := filepath.Join(home, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-run-session", "--", os.Args[0], "-test.run=^TestKeysInSecretService$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "YUI_KEYRING_CHILD=1", "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_RUNTIME_DIR="+run, "DBUS_SESSION_BUS_ADDRESS=")
	out, err := cmd.CombinedOutput()
	t.Logf("child on a private bus:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestKeysInSecretService") {
		t.Fatalf("the test on a private bus failed: %v", err)
	}
}
