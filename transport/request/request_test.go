package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"yui/transport"
	"yui/transport/apierror"
	"yui/transport/modelid"
)

func split(parts ...string) (sentences []string, rest string) {
	var s Splitter
	for _, p := range parts {
		sentences = append(sentences, s.Push(p)...)
	}
	return sentences, s.Flush()
}

func TestSplitter(t *testing.T) {
	cases := []struct {
		in   []string
		want []string
		rest string
	}{
		{[]string{"Hello there. How are", " you? Fine"}, []string{"Hello there.", "How are you?"}, "Fine"},
		{[]string{"Wow!", " Really?!", " Yes"}, []string{"Wow!", "Really?!"}, "Yes"},
		{[]string{"Use e.g. this one. Ok"}, []string{"Use e.g. this one."}, "Ok"},
		{[]string{"Pi is 3.14 today. Ok"}, []string{"Pi is 3.14 today."}, "Ok"},
		{[]string{"See example.com/a.b for it. Ok"}, []string{"See example.com/a.b for it."}, "Ok"},
		{[]string{"Dr. Smith is in. Ok"}, []string{"Dr. Smith is in."}, "Ok"},
		{[]string{"Visit example.com. Then"}, []string{"Visit example.com."}, "Then"},
		{[]string{"Well… I see. Ok"}, []string{"Well…", "I see."}, "Ok"},
		{[]string{"こんにちは。元気", "ですか？はい"}, []string{"こんにちは。", "元気ですか？"}, "はい"},
		{[]string{"一行目\n二行目\n\n- item"}, []string{"一行目", "二行目"}, "- item"},
		{[]string{`He said "hi." Then`}, []string{`He said "hi."`}, "Then"},
		{[]string{"It costs approx. five. Ok"}, []string{"It costs approx. five."}, "Ok"},
		// A sentence is handed on with the token that ends it when
		// nothing in it needs the next one (sentence.go's settled).
		{[]string{"Done.", ""}, []string{"Done."}, ""},
		{[]string{"Hi there", ".", " How"}, []string{"Hi there."}, "How"},
		{[]string{"Really?!"}, []string{"Really?!"}, ""},
		{[]string{"こんにちは。"}, []string{"こんにちは。"}, ""},
		// ...unless it may go on: a number, an initial, an abbreviation,
		// an ellipsis, an open quote.
		{[]string{"Pi is 3.", "14 today. Ok"}, []string{"Pi is 3.14 today."}, "Ok"},
		{[]string{"Ask J.", " Smith. Ok"}, []string{"Ask J. Smith."}, "Ok"},
		{[]string{"Ask Dr.", " Smith. Ok"}, []string{"Ask Dr. Smith."}, "Ok"},
		{[]string{"Well...", " maybe. Ok"}, []string{"Well... maybe."}, "Ok"},
		{[]string{`He said "hi.`, `" Then`}, []string{`He said "hi."`}, "Then"},
		// The first sentence is cut at a clause once it is long enough
		// and its end has not come yet; later ones are not, nor is a
		// short first clause.
		{[]string{"Well, that is a lovely question to ask me,", " and I think so.", " Yes, of course, it is,", " my friend. Ok"},
			[]string{"Well, that is a lovely question to ask me,", "and I think so.", "Yes, of course, it is, my friend."}, "Ok"},
		{[]string{"It costs 1,", "000 yen in the shop near the station,", " I think. Ok"},
			[]string{"It costs 1,000 yen in the shop near the station,", "I think."}, "Ok"},
		{[]string{"Well, that is a lovely question to ask me, and I think so. Ok"},
			[]string{"Well, that is a lovely question to ask me, and I think so."}, "Ok"},
		{[]string{"今日はとてもいい天気ですね、", "散歩に行きましょう。"}, []string{"今日はとてもいい天気ですね、", "散歩に行きましょう。"}, ""},
		{[]string{"(one two three four five six seven eight, nine) ten. Ok"}, []string{"(one two three four five six seven eight, nine) ten."}, "Ok"},
		{[]string{"[SILENT]"}, nil, "[SILENT]"},
	}
	for _, c := range cases {
		got, rest := split(c.in...)
		if strings.Join(got, "|") != strings.Join(c.want, "|") || rest != c.rest {
			t.Errorf("%q: got %q rest %q, want %q rest %q", c.in, got, rest, c.want, c.rest)
		}
	}
}

// Splitting never loses or invents text, whatever the chunking.
func FuzzSplitter(f *testing.F) {
	f.Add("Hello there. How are you? Fine", 3)
	f.Add("e.g. 3.14… 。！？\n\n\"x.\" y", 1)
	f.Fuzz(func(t *testing.T, s string, step int) {
		if step <= 0 || step > 64 {
			step = 7
		}
		var sp Splitter
		var out []string
		for i := 0; i < len(s); i += step {
			out = append(out, sp.Push(s[i:min(i+step, len(s))])...)
		}
		out = append(out, sp.Flush())
		if strings.Join(strings.Fields(strings.Join(out, " ")), "") != strings.Join(strings.Fields(s), "") {
			t.Fatalf("%q split as %q", s, out)
		}
	})
}

func TestExpressSchema(t *testing.T) {
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	raw := ExpressSchema(transport.Vocabulary{EmotionIDs: []string{"happy"}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"b": "", "a": ""}})
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Properties["motion_id"]; ok {
		t.Errorf("empty motion list declared: %s", raw)
	}
	if e := s.Properties["emotion_text"]["enum"].([]any); e[0] != "a" || e[1] != "b" {
		t.Errorf("emotion_text enum %v", e)
	}
}

func TestEndpoint(t *testing.T) {
	cases := []struct{ base, want string }{
		{"http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1/chat/completions"},
		{"http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1/chat/completions"},
		{" https://api.openai.com/v1// ", "https://api.openai.com/v1/chat/completions"},
		{"http://localhost:8000", "http://localhost:8000/chat/completions"},
		{"https://x.example/openai/v1?api-version=2025-04-01", "https://x.example/openai/v1/chat/completions?api-version=2025-04-01"},
	}
	for _, c := range cases {
		got, err := Endpoint(c.base, "/chat/completions")
		if err != nil || got != c.want {
			t.Errorf("Endpoint(%q) = %q, %v; want %q", c.base, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:11434", "ftp://host/v1", "http://", "://x"} {
		if got, err := Endpoint(bad, "/responses"); err == nil {
			t.Errorf("Endpoint(%q) = %q, want an error", bad, got)
		}
	}
}

func TestEventLimiter(t *testing.T) {
	read := func(stream string, max int) (string, error) {
		var b strings.Builder
		_, err := io.Copy(&b, &eventLimiter{r: io.NopCloser(strings.NewReader(stream)), max: max})
		return b.String(), err
	}
	// Events each under the limit pass whole, whatever the line breaks.
	ok := "data: 12345\n\ndata: 12345\r\n\r\nevent: x\ndata: 1\n\n"
	if got, err := read(ok, 20); err != nil || got != ok {
		t.Errorf("small events: %q, %v", got, err)
	}
	// One long line, and one event of many short lines, fail.
	for _, s := range []string{"data: " + strings.Repeat("x", 100), strings.Repeat("data: x\n", 20)} {
		if got, err := read(s, 64); !errors.Is(err, ErrEventTooLarge) || len(got) > 64 {
			t.Errorf("%.20q...: read %d bytes, err %v", s, len(got), err)
		}
	}
}

// think runs a ThinkFilter over deltas.
func think(parts ...string) (text, reasoning string) { return thinkWith(false, parts...) }

func thinkWith(implied bool, parts ...string) (text, reasoning string) {
	f := ThinkFilter{Implied: implied}
	var tb, rb strings.Builder
	for _, p := range parts {
		t, r := f.Push(p)
		tb.WriteString(t)
		rb.WriteString(r)
	}
	t, r := f.Flush()
	return tb.String() + t, rb.String() + r
}

func TestThinkFilter(t *testing.T) {
	cases := []struct {
		in              []string
		text, reasoning string
	}{
		{[]string{"<think>a</think>b"}, "b", "a"},
		{[]string{"<", "think", ">", "a", "<", "/", "think", ">", "b"}, "b", "a"},
		{[]string{"x < y and <b>bold</b>"}, "x < y and <b>bold</b>", ""},
		{[]string{"stray </think>close"}, "stray close", ""},
		{[]string{"<think>never closed"}, "", "never closed"},
		{[]string{"ends with <thi"}, "ends with <thi", ""},
		{[]string{"<think>r1</think>t1<think>r2</think>t2"}, "t1t2", "r1r2"},
		{[]string{"", "<think></think>", ""}, "", ""},
	}
	for _, c := range cases {
		text, reasoning := think(c.in...)
		if text != c.text || reasoning != c.reasoning {
			t.Errorf("%q: text %q reasoning %q, want %q %q", c.in, text, reasoning, c.text, c.reasoning)
		}
	}
	var f ThinkFilter
	f.Push("seen </think> once")
	if !f.Stray {
		t.Error("a stray </think> did not set Stray")
	}
}

// A server whose template opens the reasoning streams only </think>.
func TestThinkFilterImplied(t *testing.T) {
	cases := []struct {
		in              []string
		text, reasoning string
	}{
		{[]string{"Okay, the user", " says hi.</th", "ink>\n\nHello."}, "\n\nHello.", "Okay, the user says hi."},
		{[]string{"\n<think>", "r</think>t"}, "\nt", "r"},
		{[]string{"No reasoning at ", "all."}, "No reasoning at all.", ""},
		{[]string{"  <thi", "nk>r</think>t"}, "  t", "r"},
	}
	for _, c := range cases {
		text, reasoning := thinkWith(true, c.in...)
		if text != c.text || reasoning != c.reasoning {
			t.Errorf("%q: text %q reasoning %q, want %q %q", c.in, text, reasoning, c.text, c.reasoning)
		}
	}
	// Each stream after Flush starts undecided again.
	f := ThinkFilter{Implied: true}
	f.Push("a</think>b")
	f.Flush()
	if text, r := f.Push("c</think>d"); text != "d" || r != "c" {
		t.Errorf("second stream: %q %q", text, r)
	}
	if got := StripThink("Okay.</think>\n\nHello."); got != "Hello." {
		t.Errorf("StripThink = %q", got)
	}
}

// Filtering loses no text but the tags, whatever the chunking.
func FuzzThinkFilter(f *testing.F) {
	f.Add("<think>a</think>b <c", 3, false)
	f.Add("x</think><<think>y", 1, true)
	f.Fuzz(func(t *testing.T, s string, step int, implied bool) {
		if step <= 0 || step > 64 {
			step = 5
		}
		var parts []string
		for i := 0; i < len(s); i += step {
			parts = append(parts, s[i:min(i+step, len(s))])
		}
		text, reasoning := thinkWith(implied, parts...)
		whole, wholeR := thinkWith(implied, s)
		if text != whole || reasoning != wholeR {
			t.Fatalf("%q in steps of %d: %q %q, whole: %q %q", s, step, text, reasoning, whole, wholeR)
		}
		if len(text)+len(reasoning) > len(s) {
			t.Fatalf("%q grew to %q %q", s, text, reasoning)
		}
	})
}

func TestFirstModel(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"object":"list","data":[{"id":"qwen3:8b","object":"model"},{"id":"llama3.2"}]}`, "qwen3:8b"},
		{`{"data":[{"id":"a"}],"object":"list"}`, "a"},
		{`{"object":"list","first_id":"x","data":[{"created":1,"id":"gpt-5"}],"has_more":true}`, "gpt-5"},
		{`{"object":"list","data":[]}`, ""},
		{`{"models":[{"name":"x"}]}`, ""},
		{`[{"id":"x"}]`, ""},
		{`{"data":"x"}`, ""},
		{`not json`, ""},
	}
	for _, c := range cases {
		if got := FirstModel(strings.NewReader(c.body)); got != c.want {
			t.Errorf("FirstModel(%s) = %q, want %q", c.body, got, c.want)
		}
	}
}

// Any model list, and any error body, is read without a panic.
func FuzzFirstModel(f *testing.F) {
	f.Add([]byte(`{"object":"list","data":[{"id":"m"}]}`))
	f.Add([]byte(`[{"error":{"code":429,"message":"quota"}}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = FirstModel(bytes.NewReader(b))
		_ = apierror.ServerError(b).Error()
	})
}

// Embedding models cannot chat: the first model a transport picks is the
// first chat model of the list.
func TestFirstModelSkipsEmbeddings(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"object":"list","data":[{"id":"nomic-embed-text:latest"},{"id":"qwen3:8b"}]}`, "qwen3:8b"},
		{`{"data":[{"id":"vectors","type":"embeddings"},{"id":"qwen3-4b","type":"llm"}]}`, "qwen3-4b"},
		{`{"data":[{"id":"bge-m3"},{"id":"mxbai-embed-large"}]}`, ""},
		{`{"data":null}`, ""},
		// KoboldCpp and text-generation-webui with no model loaded.
		{`{"object":"list","data":[{"id":"inactive","object":"model","owned_by":"koboldcpp","root":"koboldcpp"}]}`, ""},
		{`{"object":"list","data":[{"id":"None","object":"model","created":0,"owned_by":"user"},{"id":"qwen3-4b.gguf","owned_by":"user"}]}`, "qwen3-4b.gguf"},
		{`{"object":"list","data":[{"id":"inactive","owned_by":"someone"}]}`, "inactive"},
	}
	for _, c := range cases {
		if got := FirstModel(strings.NewReader(c.body)); got != c.want {
			t.Errorf("FirstModel(%s) = %q, want %q", c.body, got, c.want)
		}
	}
	for id, want := range map[string]bool{
		"nomic-embed-text": true, "text-embedding-3-small": true, "BAAI/bge-m3": true, "bge-large:335m": true,
		"all-minilm:l6-v2": true, "snowflake-arctic-embed2": true, "jina-reranker-v2": true,
		"qwen3:8b": false, "gpt-4o": false, "llama3.2": false, "bigemma": false,
	} {
		if modelid.IsEmbedding(id) != want {
			t.Errorf("IsEmbedding(%q) != %v", id, want)
		}
	}
}
