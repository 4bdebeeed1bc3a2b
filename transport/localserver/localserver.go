// Package localserver finds the model servers running on this machine:
// Ollama, LM Studio, llama.cpp, vLLM, Jan, KoboldCpp, text-generation-webui
// and GPT4All all serve the OpenAI API on a known loopback port. Scan asks
// every port at once with GET /v1/models (loopback only, a short timeout),
// names each server by what only it answers (probes.go), and picks its
// first chat model, leaving out embedding models, which cannot hold a
// conversation. A server that refuses for want of its API key is still
// found, and marked so.
//
// It never imports Fyne: the app runs it on first start, from the settings
// window's "Find local servers" button, and again on the reconnect
// schedule while a first start found nothing.
package localserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"
	"yui/transport/modelid"
)

// Kind names a server program.
type Kind string

// The servers Scan knows.
const (
	Ollama    Kind = "Ollama"
	LMStudio  Kind = "LM Studio"
	LlamaCpp  Kind = "llama.cpp"
	VLLM      Kind = "vLLM"
	Jan       Kind = "Jan"
	KoboldCpp Kind = "KoboldCpp"
	TextGen   Kind = "text-generation-webui"
	GPT4All   Kind = "GPT4All"
)

// Port is a loopback port a server listens on by default, with one line
// on how to start it there (the welcome page lists them).
type Port struct {
	Port  int
	Kind  Kind
	Start string
}

// KnownPorts returns the usual ports, in the order a first start prefers
// them.
func KnownPorts() []Port {
	return []Port{
		{11434, Ollama, "install from ollama.com, then `ollama pull qwen3:4b` (it serves on its own)"},
		{1234, LMStudio, "LM Studio → Developer → Start server, with a model loaded (or `lms server start`)"},
		{8080, LlamaCpp, "`llama-server -m model.gguf --port 8080`"},
		{8000, VLLM, "`vllm serve Qwen/Qwen3-4B`"},
		{1337, Jan, "Jan → Settings → Local API Server → Start server (it shows the API key Yui needs)"},
		{5001, KoboldCpp, "`koboldcpp --model model.gguf` (serves on 5001)"},
		{5000, TextGen, "`python server.py --api` (its OpenAI API is on 5000)"},
		{4891, GPT4All, "GPT4All → Settings → Enable Local API Server"},
	}
}

// Server is a server that answered.
type Server struct {
	// URL is its OpenAI base URL, http://127.0.0.1:PORT/v1.
	URL  string
	Port int
	Kind Kind
	// Models are its chat models, embedding models left out.
	Models []string
	// Model is the first chat model; "" when it has none.
	Model string
	// NeedsKey: the server refused its model list, or the rest, for want
	// of an API key (Jan since 0.5.18 is started with one; llama.cpp
	// with --api-key lists its model to anyone): it is there, and the
	// preset needs its key before anything else.
	NeedsKey bool
	// NoneLoaded: the server says it has no model loaded
	// (text-generation-webui's model_name "None"), rather than none
	// installed.
	NoneLoaded bool
}

// Label is how the pill and the settings window name it: "Ollama ·
// qwen3:8b", "Ollama · no chat model", "text-generation-webui · no model
// loaded" or "Jan · needs its API key".
func (s Server) Label() string {
	switch {
	case s.NeedsKey:
		return string(s.Kind) + " · needs its API key"
	case s.Model == "" && s.NoneLoaded:
		return string(s.Kind) + " · no model loaded"
	case s.Model == "":
		return string(s.Kind) + " · no chat model"
	}
	return string(s.Kind) + " · " + s.Model
}

// Fix is what gets this server talking: its key, or a chat model (NoModelFix);
// "" when it has one.
func (s Server) Fix() Fix {
	switch {
	case s.NeedsKey:
		return FixAPIKey
	case s.Model != "":
		return ""
	}
	return NoModelFix(s.Kind)
}

// Hint is Fix in English, for the log.
func (s Server) Hint() string {
	switch s.Fix() {
	case "":
		return ""
	case FixAPIKey:
		return APIKeyHint(s.Kind)
	}
	return NoModelHint(s.Kind)
}

// Options tune Scan. The zero value asks KnownPorts on 127.0.0.1.
type Options struct {
	// Ports to ask; nil is KnownPorts (tests give their own).
	Ports []Port
	// Host is the loopback address; "" is 127.0.0.1. Anything else than a
	// loopback address is refused: a scan never leaves the machine.
	Host string
	// Timeout bounds each request; 0 is DefaultTimeout.
	Timeout time.Duration
	// Client makes the requests; nil is a client of its own.
	Client *http.Client
	Logger *slog.Logger
	// Repeat marks a scan that runs again on a schedule: its
	// server_scan record is debug unless something was found.
	Repeat bool
}

// DefaultTimeout is short: a server on loopback answers in milliseconds,
// and a first start waits for the scan.
const DefaultTimeout = 800 * time.Millisecond

// Scan asks every port at once and returns the servers that answered, in
// the order of the ports. It logs server_scan and one server_found each.
func Scan(ctx context.Context, o Options) []Server {
	ports := o.Ports
	if ports == nil {
		ports = KnownPorts()
	}
	host := o.Host
	if host == "" {
		host = "127.0.0.1"
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if !loopback(host) {
		log.Warn("server_scan", "err", fmt.Sprintf("%s is not a loopback address", host))
		return nil
	}
	c := o.client()
	found := make([]*Server, len(ports))
	var wg sync.WaitGroup
	for i, p := range ports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i] = ask(ctx, c, host, p)
		}()
	}
	wg.Wait()
	var out []Server
	tried := make([]int, 0, len(ports))
	urls := []string{}
	for i, p := range ports {
		tried = append(tried, p.Port)
		if found[i] != nil {
			out = append(out, *found[i])
			urls = append(urls, found[i].URL)
		}
	}
	level := slog.LevelInfo
	if o.Repeat && len(out) == 0 {
		level = slog.LevelDebug
	}
	log.Log(ctx, level, "server_scan", "ports", tried, "found", len(out), "urls", urls)
	for _, s := range out {
		log.Info("server_found", "url", s.URL, "kind", string(s.Kind), "model", s.Model, "models", len(s.Models), "needs_key", s.NeedsKey)
	}
	return out
}

// FirstWithModel is the first server with a chat model that needs no key
// first; false when none has one.
func FirstWithModel(servers []Server) (Server, bool) {
	for _, s := range servers {
		if s.Model != "" && !s.NeedsKey {
			return s, true
		}
	}
	return Server{}, false
}

func (o Options) client() *http.Client {
	if o.Client != nil {
		return o.Client
	}
	t := o.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	// No proxy: a proxy from the environment would see loopback requests
	// as its own, and a scan must not leave the machine.
	tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	return &http.Client{Timeout: t, Transport: tr}
}

// ask is one port: its model list, then who it is. A port that answers
// no model list is no chat server, unless it refused the list for want
// of a key and the probes name it.
func ask(ctx context.Context, c *http.Client, host string, p Port) *Server {
	root := "http://" + joinHost(host, p.Port)
	models := fetch(ctx, c, root+modelsPath, maxBody)
	refused := models.status == http.StatusUnauthorized || models.status == http.StatusForbidden
	list, listed := parseModels(models.body)
	if !refused && (!models.ok() || !listed) {
		return nil
	}
	if listed && !list.chatCapable() { // a speech server is not a chat server (audio.go)
		return nil
	}
	id := identify(ctx, c, root, models)
	if !id.kind.chatServer() || (refused && id.kind == "") {
		return nil
	}
	kind := id.kind
	if kind == "" {
		kind = p.Kind // nothing else told: the port's usual owner
	}
	s := &Server{URL: root + "/v1", Port: p.Port, Kind: kind, NeedsKey: refused || id.needsKey, NoneLoaded: id.noneLoaded}
	for _, m := range list.Data {
		if (kind == KoboldCpp && m.ID == koboldNone) || (kind == TextGen && m.ID == textGenNone) {
			s.NoneLoaded = true
			continue
		}
		if m.embedding() || m.Task != "" || id.embeddings[m.ID] || modelid.IsEmbedding(m.ID) {
			continue
		}
		s.Models = append(s.Models, m.ID)
	}
	if len(s.Models) > 0 {
		s.Model = s.Models[0]
	}
	return s
}

// koboldNone is the model KoboldCpp lists when it has none loaded (its
// friendlymodelname before a model is, koboldcpp.py).
const koboldNone = "inactive"

// textGenNone is the first model text-generation-webui versions whose
// /v1/models lists every model on disk put first: get_available_models()
// starts with "None" (extensions/openai/models.py, list_models).
const textGenNone = "None"

// chatCapable says whether a model list may be a chat server's: not a
// list of speech, transcription or voice-activity models only (speaches
// marks every model with its task, which no chat server's list has;
// openedai-speech and Kokoro-FastAPI list tts-1).
func (l modelList) chatCapable() bool {
	if len(l.Data) == 0 {
		return true
	}
	if l.audioOnly() {
		return false
	}
	for _, m := range l.Data {
		if m.Task == "" {
			return true
		}
	}
	return false
}

func joinHost(host string, port int) string {
	if len(host) > 0 && host[0] != '[' && containsColon(host) {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.Itoa(port)
}

func containsColon(s string) bool {
	for i := range len(s) {
		if s[i] == ':' {
			return true
		}
	}
	return false
}

// Fix names what gets a chat model onto a server that lists none, so
// that the settings window can say it in the user's language; NoModelHint
// is its English, for the log and the transports.
type Fix string

// The fixes NoModelFix and Server.Fix give.
const (
	FixOllamaPull   Fix = "ollama_pull"   // the command: ollama pull qwen3:4b
	FixLMStudioLoad Fix = "lmstudio_load" // load one in LM Studio, or lms load
	FixTextGenLoad  Fix = "textgen_load"  // load one in text-generation-webui's Model tab
	FixLoadModel    Fix = "load_model"    // load one in the server (Kind, if known)
	FixAPIKey       Fix = "api_key"       // paste the server's API key into the preset
)

// NoModelFix is what fixes a server of kind k that lists no chat model.
func NoModelFix(k Kind) Fix {
	switch k {
	case Ollama:
		return FixOllamaPull
	case LMStudio:
		return FixLMStudioLoad
	case TextGen:
		return FixTextGenLoad
	}
	return FixLoadModel
}

// APIKeyHint says where a keyed server's key is, in English.
func APIKeyHint(k Kind) string {
	if k == Jan {
		return "paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"
	}
	if k == "" {
		return "paste the server's API key into the preset's key"
	}
	return "paste " + string(k) + "'s API key into the preset's key"
}

// LoadsOne says whether a server of kind k serves the one model its user
// loaded, so that having none is "no model loaded" (Server.NoneLoaded).
func LoadsOne(k Kind) bool { return k == KoboldCpp || k == TextGen }

// NoModelHint is NoModelFix(k) in English: the command for Ollama, what
// to do in the others.
func NoModelHint(k Kind) string {
	switch NoModelFix(k) {
	case FixOllamaPull:
		return "run: ollama pull qwen3:4b"
	case FixLMStudioLoad:
		return "load a model in LM Studio (or run: lms load qwen3-4b)"
	case FixTextGenLoad:
		return "load one in text-generation-webui's Model tab"
	}
	if k == "" {
		return "load a chat model in the server"
	}
	return "load a chat model in " + string(k)
}

// Describe names the server at a loopback base URL (http://127.0.0.1:11434/v1)
// by what it answers, or by its port when nothing tells; "" for a URL
// that is not on this machine or a port nobody is known for.
func Describe(ctx context.Context, base string, timeout time.Duration) Kind {
	host, port, ok := hostPort(base)
	if !ok || !loopback(host) {
		return ""
	}
	c := Options{Timeout: timeout}.client()
	root := "http://" + joinHost(host, port)
	if k := identify(ctx, c, root, fetch(ctx, c, root+modelsPath, maxBody)).kind; k != "" && k.chatServer() {
		return k
	}
	for _, p := range KnownPorts() {
		if p.Port == port {
			return p.Kind
		}
	}
	return ""
}

func hostPort(base string) (string, int, bool) {
	req, err := http.NewRequest(http.MethodGet, base, nil)
	if err != nil || req.URL.Scheme != "http" {
		return "", 0, false
	}
	port, err := strconv.Atoi(req.URL.Port())
	if err != nil {
		return "", 0, false
	}
	return req.URL.Hostname(), port, true
}
