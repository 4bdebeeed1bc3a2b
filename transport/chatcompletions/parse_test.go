package chatcompletions

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

// splitSink feeds text into a splitter, as the engine's sink does.
type splitSink struct {
	sp request.Splitter
	n  int
}

func (s *splitSink) Text(d string)                   { s.n += len(s.sp.Push(d)) }
func (s *splitSink) Refusal(d string)                { s.Text(d) }
func (s *splitSink) Reasoning(string)                {}
func (s *splitSink) Usage(transport.Usage)           {}
func (s *splitSink) ToolStatus(state, toolID string) {}

// Any chunk is read or refused with an error: never a panic.
func FuzzEvent(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"content":"Hi. ","reasoning_content":"x","tool_calls":[{"index":0,"id":"c","function":{"name":"look","arguments":"{"}}]},"finish_reason":null}]}`))
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"x"}}]}}]}`))
	f.Add([]byte(`{"choices":[{"delta":{"tool_calls":[{"index":-5}]}}]}`))
	f.Add([]byte(`{"choices":[],"usage":{"prompt_tokens":1}}`))
	f.Add([]byte(`{"error":{"code":500,"message":"x"}}`))
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"t"}]},{"type":"text","text":"Hi."}],"refusal":"no"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := &exchange{d: &dialect{}}
		s := &splitSink{}
		_ = x.Event("", data, s)
		_ = x.Event("", data, s)
		_ = x.Calls()
		x.Answer(nil)
		x.Commit(false)
	})
}

func BenchmarkChunk(b *testing.B) {
	var buf bytes.Buffer
	words := strings.Fields("The tests all passed on the first run, and the slow ones took about three seconds each. Want me to list them?")
	const n = 1000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1789365854,\"model\":\"gpt-4o\",\"system_fingerprint\":\"fp_1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"logprobs\":null,\"finish_reason\":null}]}\n\n", words[i%len(words)]+" ")
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
