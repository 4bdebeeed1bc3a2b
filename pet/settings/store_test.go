package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
)

// seqRand is a deterministic random source: bytes 0, 1, 2, ...
type seqRand struct {
	mu sync.Mutex
	n  byte
}

func (r *seqRand) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range p {
		p[i] = r.n
		r.n++
	}
	return len(p), nil
}

var fixedNow = func() time.Time { return time.Unix(1700000000, 0) }

func open(t *testing.T, dir string) (*Store, *Notice) {
	t.Helper()
	s, n, err := Open(dir, Options{Rand: &seqRand{}, Now: fixedNow})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(s.Close)
	return s, n
}

func TestFirstStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "yui")
	s, n := open(t, dir)
	if n != nil {
		t.Fatalf("notice on first start: %+v", n)
	}
	st := s.Get()
	if len(st.Presets) != 1 {
		t.Fatalf("presets = %d, want 1", len(st.Presets))
	}
	p := st.Presets[0]
	if p.Name != "Yui" || p.Character != "yui" || p.ChatAPI != "chat_completions" ||
		p.ChatBaseURL != "http://127.0.0.1:11434/v1" || p.Key != "" || !p.Enabled ||
		!p.Poke || p.Greeting || p.Relation != 50 {
		t.Errorf("default preset = %+v", p)
	}
	if st.ActivePreset != p.ID {
		t.Errorf("active = %q, want %q", st.ActivePreset, p.ID)
	}
	if !regexp.MustCompile(`^yui-[0-9a-f]{8}$`).MatchString(p.ChatID) {
		t.Errorf("chat_id = %q", p.ChatID)
	}
	if st.ScreenLook != "unset" || st.LogLevel != "info" || st.Version != CurrentVersion {
		t.Errorf("globals = %+v", st)
	}
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode = %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %v, want 0700", di.Mode().Perm())
	}

	// The chat_id is fixed at installation: a reopen reads the same one.
	s2, n := open(t, dir)
	if n != nil {
		t.Fatalf("notice on reopen: %+v", n)
	}
	if got := s2.Get().Presets[0].ChatID; got != p.ChatID {
		t.Errorf("chat_id after reopen = %q, want %q", got, p.ChatID)
	}
}

func TestFileFormat(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir)
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "active_preset", "presets", "screen_look", "browser_tool", "browser_local", "log_level"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("file lacks %q:\n%s", k, data)
		}
	}
	if raw["browser_local"] != false { // public web only until the user says otherwise
		t.Errorf("browser_local = %v, want false", raw["browser_local"])
	}
	p := raw["presets"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "name", "enabled", "character", "chat_api", "chat_base_url", "key", "model",
		"reasoning_effort", "card", "context_window", "chat_id", "speech", "voice", "screen_on_turn",
		"greeting", "poke"} {
		if _, ok := p[k]; !ok {
			t.Errorf("preset lacks %q", k)
		}
	}
	// What the app learns lives in the state files.
	if _, ok := raw["delegation_history"]; ok {
		t.Error("settings file holds the delegation history")
	}
	for _, k := range []string{"positions", "relation"} {
		if _, ok := p[k]; ok {
			t.Errorf("settings file's preset holds %q", k)
		}
	}
}

func TestCorruptFileKeptAside(t *testing.T) {
	for name, content := range map[string]string{
		"garbage":    "{not json",
		"empty":      "",
		"no version": `{"presets":[]}`,
		"array":      `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			s, n := open(t, dir)
			if n == nil || n.Err == nil {
				t.Fatalf("no notice for a corrupt file")
			}
			want := path + ".corrupt-1700000000"
			if n.KeptAs != want {
				t.Errorf("kept as %q, want %q", n.KeptAs, want)
			}
			kept, err := os.ReadFile(want)
			if err != nil || string(kept) != content {
				t.Errorf("kept file = %q, %v; want the original", kept, err)
			}
			if !strings.Contains(n.Message, "default settings") {
				t.Errorf("message = %q", n.Message)
			}
			if got := s.Get().Presets[0].Name; got != "Yui" {
				t.Errorf("not started with defaults: %q", got)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("defaults not saved: %v", err)
			}
		})
	}
}

func TestHalfInvalidFileKeepsValidPresets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	content := `{"version":1,"active_preset":"bad","log_level":"loud","presets":[
	  {"id":"good","name":"Good","chat_api":"push","chat_base_url":"ws://127.0.0.1:1/ws","chat_id":"yui-00000001"},
	  {"id":"bad","name":"","chat_api":"push","chat_base_url":"ftp://x","chat_id":"yui-00000002"},
	  {"id":"shape","name":"Shape","relation":"high"}],
	  "delegation_history":{"good":[{"id":"d1","title":"t","started_at":1,"state":"running"}]}}`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, n := open(t, dir)
	if n == nil || len(n.Refused) != 3 {
		t.Fatalf("notice = %+v, want three refusals", n)
	}
	st := s.Get()
	if len(st.Presets) != 1 || st.Presets[0].ID != "good" || st.ActivePreset != "good" || st.LogLevel != "info" {
		t.Fatalf("kept = %+v", st)
	}
	if len(st.DelegationHistory["good"]) != 1 {
		t.Errorf("history of the valid preset lost: %+v", st.DelegationHistory)
	}
	var reasons []string
	for _, r := range s.Refused() {
		reasons = append(reasons, r.String())
	}
	all := strings.Join(reasons, " | ")
	for _, want := range []string{`preset "": name is empty`, "chat_base_url must start with", `preset "Shape"`, "log_level"} {
		if !strings.Contains(all, want) {
			t.Errorf("refusals %q lack %q", all, want)
		}
	}
	want := path + ".invalid-1700000000"
	if n.KeptAs != want {
		t.Errorf("kept as %q, want %q", n.KeptAs, want)
	}
	if kept, err := os.ReadFile(want); err != nil || string(kept) != content {
		t.Errorf("original not kept aside: %v", err)
	}
	if !strings.Contains(n.Message, "refused") {
		t.Errorf("message = %q", n.Message)
	}
}

func TestSubscribeSeesWhatChanged(t *testing.T) {
	s, _ := open(t, t.TempDir())
	first := s.Get().Presets[0].ID
	var got []Change
	cancel := s.Subscribe(func(c Change) {
		got = append(got, c)
		if len(got) == 1 {
			// A subscriber may update the store: its change comes next.
			if err := s.Update(func(st *Settings) error { st.LogLevel = "debug"; return nil }); err != nil {
				t.Error(err)
			}
		}
	})
	if err := s.UpdatePreset(first, func(p *Preset) error { p.Name = "Mika"; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("changes = %d, want 2", len(got))
	}
	if !got[0].PresetChanged(first) || got[0].Global || got[0].New.Presets[0].Name != "Mika" || got[0].Old.Presets[0].Name != "Yui" {
		t.Errorf("first change = %+v", got[0])
	}
	if len(got[1].Presets) != 0 || !got[1].Global {
		t.Errorf("second change = %+v", got[1])
	}
	cancel()
	if err := s.Update(func(st *Settings) error { st.LogLevel = "warn"; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Errorf("cancelled subscriber still called")
	}
}

func TestNewerVersionKeptAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	content := `{"version":99,"presets":[]}`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	_, n := open(t, dir)
	var nv *NewerVersionError
	if n == nil || !errors.As(n.Err, &nv) || nv.Version != 99 {
		t.Fatalf("notice = %+v", n)
	}
	if n.KeptAs != path+".newer-1700000000" {
		t.Errorf("kept as %q", n.KeptAs)
	}
	if b, _ := os.ReadFile(n.KeptAs); string(b) != content {
		t.Errorf("kept file = %q", b)
	}
}

func TestUnreadableFileIsNotOverwritten(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads everything")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(`{"version":1}`), 0o000); err != nil {
		t.Fatal(err)
	}
	_, n := open(t, dir)
	if n == nil || n.KeptAs == "" {
		t.Fatalf("notice = %+v", n)
	}
	if _, err := os.Stat(n.KeptAs); err != nil {
		t.Errorf("unreadable file not kept: %v", err)
	}
}

func TestMissingFieldsTakeDefaults(t *testing.T) {
	dir := t.TempDir()
	content := `{"version":1,"active_preset":"a","presets":[{"id":"a","name":"Mika","chat_id":"yui-00000001","chat_api":"push","chat_base_url":"wss://example.com/ws"}]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, n := open(t, dir)
	if n != nil {
		t.Fatalf("notice = %+v", n)
	}
	p := s.Get().Presets[0]
	if !p.Poke || p.Greeting || p.Relation != 50 || !p.Enabled || p.Speech.Engine != "system" ||
		p.Speech.Rate != 1 || p.Voice.Mode != "off" || p.Character != "yui" {
		t.Errorf("preset = %+v", p)
	}
	if st := s.Get(); st.ScreenLook != "unset" || st.LogLevel != "info" {
		t.Errorf("globals = %+v", st)
	}
}

func TestUnknownFieldsPreserved(t *testing.T) {
	dir := t.TempDir()
	content := `{"version":1,"active_preset":"a","future":{"x":[1,2]},
		"presets":[{"id":"a","name":"Mika","chat_id":"yui-00000001","chat_api":"push",
		"chat_base_url":"wss://example.com/ws","mood":"sunny"}]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := open(t, dir)
	if err := s.SetActive("a"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path())
	var raw struct {
		Future  json.RawMessage `json:"future"`
		Presets []struct {
			Mood string `json:"mood"`
		} `json:"presets"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw.Future) != `{"x":[1,2]}` && !strings.Contains(string(raw.Future), `"x"`) {
		t.Errorf("future = %s", raw.Future)
	}
	if len(raw.Presets) != 1 || raw.Presets[0].Mood != "sunny" {
		t.Errorf("preset unknown field lost:\n%s", data)
	}
}

func TestRepairs(t *testing.T) {
	dir := t.TempDir()
	content := `{"version":1,"active_preset":"gone","presets":[
		{"id":"a","name":"One","chat_id":"yui-00000001","chat_base_url":"http://h/v1","relation":140},
		{"id":"a","name":"Two","chat_id":"yui-00000001","chat_base_url":"http://h/v1","relation":-5},
		{"name":"Three","chat_base_url":"http://h/v1"}]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, n := open(t, dir)
	if n == nil || n.Err != nil || len(n.Repairs) == 0 {
		t.Fatalf("notice = %+v", n)
	}
	st := s.Get()
	ids, chats := map[string]bool{}, map[string]bool{}
	for _, p := range st.Presets {
		if p.ID == "" || ids[p.ID] || p.ChatID == "" || chats[p.ChatID] {
			t.Errorf("ids not repaired: %+v", st.Presets)
		}
		ids[p.ID], chats[p.ChatID] = true, true
	}
	if st.Presets[0].ID != "a" || st.Presets[0].ChatID != "yui-00000001" {
		t.Errorf("first holder of an id lost it: %+v", st.Presets[0])
	}
	if st.Presets[0].Relation != 100 || st.Presets[1].Relation != 0 {
		t.Errorf("relations = %d, %d", st.Presets[0].Relation, st.Presets[1].Relation)
	}
	if st.ActivePreset != "a" {
		t.Errorf("active = %q", st.ActivePreset)
	}
	// The repairs were saved: a reopen needs none.
	if _, n := open(t, dir); n != nil {
		t.Errorf("second notice = %+v", n)
	}
}

func TestValidatePreset(t *testing.T) {
	base := defaultPreset()
	base.ID, base.ChatID, base.Name = "p", "yui-00000000", "Yui"
	if errs := base.Validate(); errs != nil {
		t.Fatalf("default preset invalid: %v", errs)
	}
	for _, tc := range []struct {
		field  string
		change func(*Preset)
	}{
		{"name", func(p *Preset) { p.Name = "  " }},
		{"chat_api", func(p *Preset) { p.ChatAPI = "grpc" }},
		{"chat_base_url", func(p *Preset) { p.ChatBaseURL = "ftp://host/x" }},
		{"chat_base_url", func(p *Preset) { p.ChatBaseURL = "http://" }},
		{"chat_base_url", func(p *Preset) { p.ChatBaseURL = "localhost:11434" }},
		{"chat_base_url", func(p *Preset) { p.ChatBaseURL = "http://a b/%zz" }},
		{"chat_base_url", func(p *Preset) { p.ChatBaseURL = "" }},
		{"context_window", func(p *Preset) { p.ContextWindow = -1 }},
		{"screen_on_turn", func(p *Preset) { p.ScreenOnTurn = "sometimes" }},
		{"speech.engine", func(p *Preset) { p.Speech.Engine = "sam" }},
		{"speech.base_url", func(p *Preset) { p.Speech.Engine = "openai" }},
		{"speech.rate", func(p *Preset) { p.Speech.Rate = 0 }},
		{"speech.volume", func(p *Preset) { p.Speech.Volume = 1.5 }},
		{"speech.command", func(p *Preset) { p.Speech.Engine, p.Speech.Command = "command", " " }},
		{"speech.command_rate", func(p *Preset) { p.Speech.CommandRate = 22 }},
		{"speech.command_rate", func(p *Preset) { p.Speech.CommandRate = -22050 }},
		{"voice.mode", func(p *Preset) { p.Voice.Mode = "always" }},
		{"voice.command", func(p *Preset) { p.Voice.Mode, p.Voice.Engine = "hands_free", "command" }},
		{"relation", func(p *Preset) { p.Relation = 101 }},
	} {
		p := base.Clone()
		tc.change(&p)
		errs := p.Validate()
		if len(errs) != 1 || errs[0].Field != tc.field || errs[0].PresetID != "p" || errs[0].Code == "" {
			t.Errorf("%s: errors = %v", tc.field, errs)
		}
	}
	for _, u := range []string{"https://api.openai.com/v1", "ws://127.0.0.1:8646", "WSS://h.example/push", "http://[::1]:80/v1"} {
		p := base.Clone()
		p.ChatBaseURL = u
		if errs := p.Validate(); errs != nil {
			t.Errorf("%s refused: %v", u, errs)
		}
	}
}

func TestUpdateRefusesInvalid(t *testing.T) {
	s, _ := open(t, t.TempDir())
	before, _ := os.ReadFile(s.Path())
	err := s.Update(func(st *Settings) error {
		st.Presets[0].Name = ""
		st.Presets[0].ChatBaseURL = "mailto:x"
		return nil
	})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *ValidationError", err)
	}
	id := s.Get().Presets[0].ID
	if got := ve.For(id); len(got) != 2 {
		t.Errorf("field errors = %v", got)
	}
	if s.Get().Presets[0].Name != "Yui" {
		t.Error("invalid update changed the settings")
	}
	after, _ := os.ReadFile(s.Path())
	if !bytes.Equal(before, after) {
		t.Error("invalid update changed the file")
	}
	boom := errors.New("boom")
	if err := s.Update(func(st *Settings) error { st.BrowserTool = true; return boom }); err != boom {
		t.Errorf("fn error = %v", err)
	}
	if s.Get().BrowserTool {
		t.Error("failed update changed the settings")
	}
}

func TestPresetHelpers(t *testing.T) {
	var changes []Change
	s, _, err := Open(t.TempDir(), Options{Rand: &seqRand{}, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	s.Subscribe(func(c Change) { changes = append(changes, c) })
	first := s.Get().Presets[0]
	if err := s.UpdatePreset(first.ID, func(p *Preset) error {
		p.Key = "sk-secret"
		p.Positions["1920x1080"] = Position{X: 10, Y: 20}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	dup, err := s.DuplicatePreset(first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if dup.ID == first.ID || dup.ChatID == first.ChatID || dup.Name != "Yui copy" || dup.Key != "sk-secret" ||
		dup.Positions["1920x1080"] != (Position{10, 20}) {
		t.Errorf("duplicate = %+v", dup)
	}
	added, err := s.AddPreset("Mika")
	if err != nil {
		t.Fatal(err)
	}
	if added.Name != "Mika" || added.ID == "" || added.ChatID == "" || added.Relation != 50 {
		t.Errorf("added = %+v", added)
	}
	if err := s.SetActive(added.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SetActive("nope"); !errors.Is(err, ErrNoPreset) {
		t.Errorf("SetActive(nope) = %v", err)
	}
	if err := s.DeletePreset(added.ID); err != nil {
		t.Fatal(err)
	}
	if st := s.Get(); st.ActivePreset != first.ID || len(st.Presets) != 2 {
		t.Errorf("after deleting the active preset: active %q, %d presets", st.ActivePreset, len(st.Presets))
	}
	if err := s.DeletePreset(dup.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePreset(first.ID); !errors.Is(err, ErrLastPreset) {
		t.Errorf("deleting the last preset = %v", err)
	}
	if len(changes) != 6 {
		t.Errorf("changes seen = %d, want 6", len(changes))
	}
	if got := s.Get().Secrets(); len(got) != 1 || got[0] != "sk-secret" {
		t.Errorf("secrets = %v", got)
	}
}

func TestKeyNotInPresetLogOrString(t *testing.T) {
	p := defaultPreset()
	p.Key, p.Speech.Key, p.Voice.Key = "sk-chat-123", "sk-speech-123", "sk-voice-123"
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("preset", "preset", p)
	out := buf.String() + p.String() + fmt.Sprint(p) + fmt.Sprintf("%v %s", p, p)
	if strings.Contains(out, "sk-") {
		t.Errorf("key leaked: %s", out)
	}
}

func TestDelegationStorePerPreset(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir)
	a := s.Get().Presets[0].ID
	b, err := s.AddPreset("B")
	if err != nil {
		t.Fatal(err)
	}
	var _ transport.DelegationStore = s.DelegationStore(a)
	hist := []transport.Delegation{{ID: "d-1", Title: "Check logs", StartedAt: 1, State: "running"}}
	if err := s.DelegationStore(a).SaveDelegations(hist); err != nil {
		t.Fatal(err)
	}
	if got := s.DelegationStore(b.ID).LoadDelegations(); len(got) != 0 {
		t.Errorf("preset B sees A's history: %v", got)
	}
	s.FlushState()
	s2, _ := open(t, dir)
	got := s2.DelegationStore(a).LoadDelegations()
	if len(got) != 1 || got[0] != hist[0] {
		t.Errorf("history after reopen = %v", got)
	}
	if err := s.DelegationStore("gone").SaveDelegations(hist); !errors.Is(err, ErrNoPreset) {
		t.Errorf("save for unknown preset = %v", err)
	}
	if err := s.DeletePreset(a); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get().DelegationHistory[a]; ok {
		t.Error("deleted preset's history kept")
	}
	s.FlushState()
	if _, err := os.Stat(s.statePath(a)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("deleted preset's state file: %v", err)
	}
}

func TestRelationScoreConcurrent(t *testing.T) {
	s, _ := open(t, t.TempDir())
	r := s.Relation(s.Get().Presets[0].ID)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := r.AddScore(3); err != nil {
				t.Error(err)
			}
			_ = s.Get()
		})
	}
	wg.Wait()
	if got := r.Score(); got != 100 {
		t.Errorf("score = %d, want 100 (clamped)", got)
	}
	if got, _ := r.AddScore(-3); got != 97 {
		t.Errorf("score = %d, want 97", got)
	}
	if _, err := s.Relation("gone").AddScore(1); !errors.Is(err, ErrNoPreset) {
		t.Errorf("unknown preset = %v", err)
	}
	s.FlushState()
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want only settings.json and state", len(entries))
	}
}

func TestMigrateHook(t *testing.T) {
	if _, err := migrate([]byte(`{"version":0}`), 0); err == nil {
		t.Error("migration from version 0 accepted")
	}
}

func FuzzDecode(f *testing.F) {
	d, _ := Default(&seqRand{})
	good, _ := Encode(d)
	f.Add(good)
	f.Add([]byte(`{"version":1,"presets":[{"id":"a","name":"x","chat_base_url":"http://h"}],"extra":1}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"presets":[{},{}],"delegation_history":{"a":[{"id":"x"}]}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data, &seqRand{})
		if err != nil {
			return
		}
		s := d.Settings
		if err := s.Validate(); err != nil {
			t.Fatalf("Decode returned invalid settings: %v", err)
		}
		// What decodes re-encodes and decodes to the same settings.
		enc, err := Encode(s)
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		d2, err := Decode(enc, &seqRand{})
		if err != nil || len(d2.Repairs) != 0 || len(d2.Refused) != 0 {
			t.Fatalf("re-decode: %v %v %v\n%s", err, d2.Repairs, d2.Refused, enc)
		}
		enc2, _ := Encode(d2.Settings)
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("not stable:\n%s\n%s", enc, enc2)
		}
	})
}

func TestKeysInClear(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Preset)
		want string
	}{
		{"no key", func(p *Preset) { p.ChatBaseURL = "http://192.168.1.20/v1" }, ""},
		{"loopback http", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "http://127.0.0.1:11434/v1" }, ""},
		{"loopback name", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "http://localhost:8080/v1" }, ""},
		{"loopback v6", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "ws://[::1]:8646" }, ""},
		{"loopback 127/8", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "ws://127.8.9.10:8646" }, ""},
		{"https remote", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "https://api.example.com/v1" }, ""},
		{"wss remote", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "wss://agent.lan:8646" }, ""},
		{"http remote", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "http://192.168.1.20:11434/v1" }, "key"},
		{"HTTP remote", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "HTTP://api.example.com/v1" }, "key"},
		{"ws remote", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "ws://agent.lan:8646" }, "key"},
		{"any address", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "http://0.0.0.0:8080/v1" }, "key"},
		{"localhost lookalike", func(p *Preset) { p.Key = "k1234"; p.ChatBaseURL = "http://localhost.example.com/v1" }, "key"},
		{"speech", func(p *Preset) {
			p.Speech = Speech{Engine: "openai", BaseURL: "http://tts.lan:8880/v1", Key: "tts-key"}
		}, "speech.key"},
		{"speech engine off", func(p *Preset) {
			p.Speech = Speech{Engine: "none", BaseURL: "http://tts.lan:8880/v1", Key: "tts-key"}
		}, ""},
		{"voice and chat", func(p *Preset) {
			p.Key, p.ChatBaseURL = "k1234", "http://10.0.0.2/v1"
			p.Voice = Voice{Mode: "hands_free", Engine: "openai", BaseURL: "http://whisper.lan/v1", Key: "stt-key"}
		}, "key,voice.key"},
		{"voice local", func(p *Preset) {
			p.Voice = Voice{Mode: "hands_free", Engine: "openai", BaseURL: "http://127.0.0.1:9000/v1", Key: "stt-key"}
		}, ""},
	} {
		p := defaultPreset()
		c.edit(&p)
		if got := strings.Join(p.KeysInClear(), ","); got != c.want {
			t.Errorf("%s: KeysInClear = %q, want %q", c.name, got, c.want)
		}
		if p.SendsKeyInClear() != (c.want != "") {
			t.Errorf("%s: SendsKeyInClear = %v", c.name, p.SendsKeyInClear())
		}
	}
}

// TestSettingsFileIsTheUsersOnly: the file is 0600 after every save and
// after opening one that others could read; its directory is made 0700;
// a save leaves no temporary file behind.
func TestSettingsFileIsTheUsersOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "yui")
	s, _ := open(t, dir)
	if err := s.UpdatePreset(s.Get().ActivePreset, func(p *Preset) error { p.Key = "sk-mode-test-1234"; return nil }); err != nil {
		t.Fatal(err)
	}
	mode := func() os.FileMode {
		fi, err := os.Stat(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if m := mode(); m != 0o600 {
		t.Fatalf("after a save: %v", m)
	}
	if err := os.Chmod(s.Path(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ = open(t, dir)
	if m := mode(); m != 0o600 {
		t.Fatalf("a 0644 file opened: %v, want 0600", m)
	}
	if s.Get().Presets[0].Key != "sk-mode-test-1234" {
		t.Fatal("key lost")
	}
	di, err := os.Stat(dir)
	if err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("dir: %v %v", di.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != FileName {
			t.Errorf("left in the directory: %s", e.Name())
		}
	}
}

// TestAtomicWriteLeavesOldFileOnFailure: a write that fails part way
// (here the rename, onto a directory) keeps the old content whole and
// leaves no temporary file; a successful one replaces it with mode 0600.
func TestAtomicWriteLeavesOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := WriteFileAtomic(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("content %q", b)
	}
	// A directory in the way makes the rename fail after the data is written.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(blocked, []byte("partial"), 0o600); err == nil {
		t.Fatal("rename onto a directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("content %q after a failed write elsewhere", b)
	}
	if os.Geteuid() != 0 {
		// A directory that cannot be written: the old file stays whole.
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o700)
		WriteFileAtomic(filepath.Join(ro, "f"), []byte("old"), 0o600)
		os.Chmod(ro, 0o500)
		defer os.Chmod(ro, 0o700)
		if err := WriteFileAtomic(filepath.Join(ro, "f"), []byte("new"), 0o600); err == nil {
			t.Fatal("write into a read-only directory succeeded")
		}
		if b, _ := os.ReadFile(filepath.Join(ro, "f")); string(b) != "old" {
			t.Fatalf("content %q", b)
		}
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}
