//go:build e2e

package xvfb

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/localserver/localservertest"
	"yui/transport/request/requesttest"
)

// TestServersNamesEachChatServerOnItsPort: each model server's fake
// (written from that server's code, transport/request/requesttest), alone
// on its own usual port, is named by `yui servers` with no --ports,
// correctly and once; speaches and whisper.cpp's server (their fakes are
// localservertest's) on the ports they share with vLLM and llama.cpp are
// listed as no chat server.
func TestServersNamesEachChatServerOnItsPort(t *testing.T) {
	yui := filepath.Join(harness.BinDir(t), "yui")
	for _, fl := range requesttest.Flavors() {
		t.Run(fl.Kind, func(t *testing.T) {
			quietPorts(t)
			f := requesttest.NewLocal(fl.Kind, "some-model")
			serveOn(t, fl.Port, f.Handle)
			out, err := exec.Command(yui, "servers").Output()
			if err != nil {
				t.Fatalf("yui servers: %v\n%s", err, out)
			}
			var chat []string
			for _, l := range strings.Split(string(out), "\n") {
				if rest, ok := strings.CutPrefix(l, "chat\t"); ok {
					chat = append(chat, rest)
				}
			}
			url := "http://127.0.0.1:" + strconv.Itoa(fl.Port) + "/v1"
			switch {
			case fl.Name == "" && len(chat) != 0:
				t.Errorf("%s (%s) listed as a chat server:\n%s", fl.Kind, fl.Version, out)
			case fl.Name != "" && (len(chat) != 1 || !strings.HasPrefix(chat[0], fl.Name+"\t"+url+"\t")):
				t.Errorf("%s (%s): want one chat line naming %s at %s:\n%s", fl.Kind, fl.Version, fl.Name, url, out)
			}
		})
	}
	// The servers that are not chat servers, played by their one fake
	// (localservertest, written from their code), on the ports they share
	// with vLLM (8000) and llama.cpp (8080).
	for _, row := range localservertest.Servers() {
		if row.Kind != "speaches" && row.Kind != "whisper.cpp" {
			continue
		}
		t.Run(row.Name, func(t *testing.T) {
			quietPorts(t)
			serveAudio(t, row.Port, row.New())
			out, err := exec.Command(yui, "servers").Output()
			if err != nil {
				t.Fatalf("yui servers: %v\n%s", err, out)
			}
			for _, l := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(l, "chat\t") {
					t.Errorf("%s listed as a chat server:\n%s", row.Name, out)
				}
			}
		})
	}
}

// Jan started with its API key (0.5.18 and later) refuses the model list
// without it: a first start still finds it on 1337, names it, and the
// welcome page lists it as wanting its key rather than finding nothing;
// the preset set up for it says in the pill where the key is.
func TestFirstStartFindsKeyedJan(t *testing.T) {
	quietPorts(t)
	jan := requesttest.NewLocal(requesttest.LocalJan, "Jan-v1-4B-Q4_K_M")
	jan.Key = "jan-secret"
	serveOn(t, 1337, jan.Handle)
	d := harness.StartXvfb(t, 1280, 800)
	a := startYui(t, d, "")
	a.WaitRecord(20*time.Second, "server_found", map[string]string{"url": "http://127.0.0.1:1337/v1", "kind": "Jan", "needs_key": "true"})
	a.WaitRecord(20*time.Second, "window_open", map[string]string{"window": "settings", "page": "welcome"})
	// The preset points at it: the pill (and the Connection tab, which
	// shows the pill's text) says where the key is.
	a.WaitRecord(20*time.Second, "pet_pill", map[string]string{
		"conn": "Jan needs its API key · paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"})
	d.Screenshot(t, "firststart-jan-needs-key")
}
