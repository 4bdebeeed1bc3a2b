package address

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/toolcall"
)

type fakeDir struct {
	running map[string]bool // name -> running
	got     []string
}

func (d *fakeDir) Find(name string) (string, func(from, text string)) {
	for n, run := range d.running {
		if strings.EqualFold(n, name) {
			if !run {
				return n, nil
			}
			return n, func(from, text string) { d.got = append(d.got, from+"→"+n+": "+text) }
		}
	}
	return "", nil
}

func TestAddressCharacter(t *testing.T) {
	dir := &fakeDir{running: map[string]bool{"Mochi": true, "Sleepy": false}}
	tool := New("Yui", []string{"Mochi"}, dir)
	if !strings.Contains(tool.Description, "Running now: Mochi") {
		t.Fatalf("description %q does not list the running characters", tool.Description)
	}
	r, err := toolcall.NewRunner([]transport.Tool{tool}, clock.Real{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct{ args, want string }{
		{`{"character":"mochi","text":"Hi there"}`, "ok: delivered to Mochi"},
		{`{"character":"Yui","text":"me?"}`, "error: a character cannot address itself"},
		{`{"character":"Sleepy","text":"wake up"}`, "error: Sleepy is not running"},
		{`{"character":"Nobody","text":"hello"}`, `error: no character named "Nobody"`},
		{`{"character":"Mochi"}`, "error: missing field text"},
		{`{"character":"Mochi","text":"` + strings.Repeat("a", 2001) + `"}`, "error: invalid field text"},
		{`{"character":"Mochi","text":"x","loud":true}`, "error: invalid field loud"},
	} {
		got := r.Run(context.Background(), transport.ToolCall{ID: "c", TurnID: "1", Name: Name, Arguments: json.RawMessage(c.args)})
		if got.Text != c.want {
			t.Errorf("%s → %q, want %q", c.args, got.Text, c.want)
		}
	}
	if len(dir.got) != 1 || dir.got[0] != "Yui→Mochi: Hi there" {
		t.Fatalf("delivered %q", dir.got)
	}
}
