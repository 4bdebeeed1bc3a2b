package responses

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"yui/transport"
	"yui/transport/request"
)

type splitSink struct{ sp request.Splitter }

func (s *splitSink) Text(d string)                   { s.sp.Push(d) }
func (s *splitSink) Refusal(d string)                { s.sp.Push(d) }
func (s *splitSink) Reasoning(string)                {}
func (s *splitSink) Usage(transport.Usage)           {}
func (s *splitSink) ToolStatus(state, toolID string) {}

// Any event is read or refused with an error: never a panic.
func FuzzEvent(f *testing.F) {
	f.Add("response.output_text.delta", []byte(`{"type":"response.output_text.delta","delta":"Hi. "}`))
	f.Add("", []byte(`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc","call_id":"c","name":"look"}}`))
	f.Add("", []byte(`{"type":"response.function_call_arguments.delta","item_id":"fc","delta":"{"}`))
	f.Add("", []byte(`{"type":"response.completed","response":{"id":"r","output":[{"type":"function_call","name":"x"}],"usage":{"input_tokens":1}}}`))
	f.Add("", []byte(`{"type":"response.failed","response":{"error":{"code":"x"}}}`))
	f.Add("", []byte(`{"error":{"code":502}}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		x := &exchange{d: &dialect{}}
		s := &splitSink{}
		_ = x.Event(name, data, s)
		_ = x.Event(name, data, s)
		_ = x.Calls()
		x.Answer(nil)
		x.Commit(true)
	})
}

func BenchmarkEvent(b *testing.B) {
	var buf bytes.Buffer
	words := strings.Fields("The tests all passed on the first run, and the slow ones took about three seconds each. Want me to list them?")
	const n = 1000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":%d,\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":%q,\"logprobs\":[]}\n\n", i, words[i%len(words)]+" ")
	}
	stream := buf.Bytes()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		resp := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(stream))}
		dec := request.NewDecoder(resp)
		x := &exchange{d: &dialect{}}
		s := &splitSink{}
		for dec.Next() {
			if err := x.Event(dec.Event().Type, dec.Event().Data, s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/chunk")
}
