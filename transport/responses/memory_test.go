package responses_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"yui/transport"
	rt "yui/transport/request/requesttest"
	"yui/transport/responses"
)

// open starts a Responses transport on base with mem, as a run of the app does.
func open(t *testing.T, base string, mem transport.Conversation) transport.Transport {
	t.Helper()
	tr, err := responses.New(transport.Options{ChatBaseURL: base, Key: "sk-secret", Model: "gpt-5", Conversation: mem, Vocabulary: rt.Vocabulary})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	tr.Start()
	return tr
}

func turn(t *testing.T, tr transport.Transport, text string) {
	t.Helper()
	rt.Collect(t, tr.Events(), tr.Send(say(text)))
}

func TestPreviousResponseIDAcrossRestart(t *testing.T) {
	srv := rt.Start(t, func(w *rt.Writer, r *http.Request, n int) { say2(w, fmt.Sprintf("resp_%d", n), "Hi.") })
	mem := rt.NewConversation(nil)
	a := open(t, srv.URL+"/v1", mem)
	turn(t, a, "one")
	a.Close()
	if s := mem.String(); !strings.Contains(s, "resp_0") || strings.Contains(s, "sk-secret") {
		t.Fatalf("saved %s", s)
	}

	b := open(t, srv.URL+"/v1", mem)
	turn(t, b, "two")
	if got := srv.Requests()[1].Body["previous_response_id"]; got != "resp_0" {
		t.Fatalf("first request after the restart chains from %v, want resp_0", got)
	}
	b.Reset()
	b.Close()

	c := open(t, srv.URL+"/v1", mem)
	turn(t, c, "three")
	if got, ok := srv.Requests()[2].Body["previous_response_id"]; ok {
		t.Fatalf("after Reset and a restart the request chains from %v", got)
	}
}

func TestPreviousResponseIDNotSentToAnotherServer(t *testing.T) {
	h := func(w *rt.Writer, r *http.Request, n int) { say2(w, fmt.Sprintf("resp_%d", n), "Hi.") }
	one, two := rt.Start(t, h), rt.Start(t, h)
	mem := rt.NewConversation(nil)
	a := open(t, one.URL+"/v1", mem)
	turn(t, a, "one")
	a.Close()
	b := open(t, two.URL+"/v1", mem)
	turn(t, b, "two")
	if got, ok := two.Requests()[0].Body["previous_response_id"]; ok {
		t.Fatalf("another server got previous_response_id %v", got)
	}
}

func TestContextOverflowRetriesWithTruncation(t *testing.T) {
	srv := rt.Start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n == 0 {
			w.Error(400, `{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`)
			return
		}
		say2(w, "resp_1", "Hi.")
	})
	tr := open(t, srv.URL+"/v1", nil)
	evs := rt.Collect(t, tr.Events(), tr.Send(say("hi")))
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Body["truncation"] != nil || reqs[1].Body["truncation"] != "auto" {
		t.Fatalf("requests %d: truncation %v then %v", len(reqs), reqs[0].Body["truncation"], reqs[len(reqs)-1].Body["truncation"])
	}
}
