package app

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"yui/pet/settings"
	"yui/transport/localserver"
)

func firstRunApp(t *testing.T, ports ...int) (*yui, *bytes.Buffer) {
	t.Helper()
	store, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !store.FirstStart() {
		t.Fatal("a new config directory is not a first start")
	}
	var logs bytes.Buffer
	y := &yui{log: slog.New(slog.NewJSONHandler(&logs, nil)), store: store}
	y.servers.log = y.log
	y.first = &firstRun{store: store, log: y.log, servers: &y.servers, pets: &y.roster, app: y}
	for _, p := range ports {
		y.servers.chatPorts = append(y.servers.chatPorts, localserver.Port{Port: p, Kind: localserver.Ollama})
	}
	return y, &logs
}

func serveModels(t *testing.T, list string) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, list)
		case "/api/tags":
			io.WriteString(w, `{"models":[]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return port
}

// A first start points the default preset at the first server with a
// chat model, passing over a server with none and embedding models.
func TestFirstStartAdoptsTheFirstChatModel(t *testing.T) {
	empty := serveModels(t, `{"object":"list","data":[]}`)
	chat := serveModels(t, `{"object":"list","data":[{"id":"nomic-embed-text:latest"},{"id":"qwen3:8b"}]}`)
	y, logs := firstRunApp(t, empty, chat)
	if welcome := y.first.start(); welcome {
		t.Fatal("the welcome page opens though a server was found")
	}
	st := y.store.Get()
	p, _ := st.Active()
	if want := "http://127.0.0.1:" + strconv.Itoa(chat) + "/v1"; p.ChatBaseURL != want || p.Model != "qwen3:8b" || p.ChatAPI != settings.ChatAPIChatCompletions {
		t.Errorf("preset %s %s %s, want %s qwen3:8b", p.ChatAPI, p.ChatBaseURL, p.Model, want)
	}
	if len(y.servers.FoundServers()) != 2 || !strings.Contains(logs.String(), `"msg":"server_chosen"`) {
		t.Errorf("found %v; log %s", y.servers.FoundServers(), logs.String())
	}
	if y.first.welcoming() {
		t.Error("welcoming after a server was found")
	}
}

// Only a server with no chat model: the preset points at it all the same
// (its probe says how to get a model, and picks it up once there).
func TestFirstStartServerWithoutModel(t *testing.T) {
	empty := serveModels(t, `{"object":"list","data":null}`)
	y, _ := firstRunApp(t, empty)
	if y.first.start() {
		t.Fatal("the welcome page opens though a server was found")
	}
	st := y.store.Get()
	p, _ := st.Active()
	if !strings.Contains(p.ChatBaseURL, strconv.Itoa(empty)) || p.Model != "" {
		t.Errorf("preset %s %q", p.ChatBaseURL, p.Model)
	}
}

// Nothing answers: the welcome page, and the preset keeps its defaults;
// the rescan may set up only a preset nobody changed.
func TestFirstStartNothingFound(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	u, _ := url.Parse(closed.URL)
	port, _ := strconv.Atoi(u.Port())
	closed.Close()
	y, _ := firstRunApp(t, port)
	if !y.first.start() || !y.first.welcoming() {
		t.Fatal("no welcome with nothing found")
	}
	st := y.store.Get()
	id := st.ActivePreset
	y.first.waitID = id
	if !y.first.untouched(id) {
		t.Error("the default preset is not untouched")
	}
	y.store.UpdatePreset(id, func(p *settings.Preset) error { p.Model = "mine"; return nil })
	if y.first.untouched(id) {
		t.Error("an edited preset would be set up by the rescan")
	}
	y.first.stopRescan()
	if y.first.welcoming() || y.first.waitID != "" {
		t.Error("the rescan did not stop")
	}
}
