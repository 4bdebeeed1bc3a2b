package dial_test

import (
	"testing"

	"yui/transport"
	"yui/transport/dial"
	"yui/transport/push"
	"yui/transport/request"
)

// TestNewPicksTheTransport holds the factory's table: push its WebSocket
// client, the request APIs ("" too) the request engine, anything else an
// error and no transport.
func TestNewPicksTheTransport(t *testing.T) {
	isRequest := func(tr transport.Transport) bool { _, ok := tr.(*request.Engine); return ok }
	opts := transport.Options{ChatBaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	for _, c := range []struct {
		api  dial.API
		base string
		want func(transport.Transport) bool
	}{
		{dial.Push, "ws://127.0.0.1:1/ws", func(tr transport.Transport) bool { _, ok := tr.(*push.Client); return ok }},
		{dial.ChatCompletions, "", isRequest},
		{"", "", isRequest},
		{dial.Responses, "", isRequest},
	} {
		o := opts
		if c.base != "" {
			o.ChatBaseURL = c.base
		}
		tr, err := dial.New(c.api, o)
		if err != nil {
			t.Fatalf("%q: %v", c.api, err)
		}
		if !c.want(tr) {
			t.Errorf("%q: got %T", c.api, tr)
		}
		tr.Close()
	}
	if tr, err := dial.New("smoke_signals", opts); err == nil || tr != nil {
		t.Errorf("unknown chat_api: %v, %v", tr, err)
	}
}
