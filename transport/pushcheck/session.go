package pushcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// readLimit bounds one backend frame the checker reads. It is far above
// the spec's limits so that an oversize frame is seen and reported.
const readLimit = 64 << 20

// maxFrames bounds what one session records; a backend that floods the
// socket past it is cut off.
const maxFrames = 100000

// waitCap bounds any one wait, however often frames re-arm its idle timer.
const waitCap = 4

// frameIn is one message the backend sent.
type frameIn struct {
	At     time.Time
	Raw    []byte
	Binary bool
	// Obj is the frame's fields; nil when it is not a JSON object.
	Obj map[string]json.RawMessage
	// Type is the string type field; "" when absent or not a string.
	Type string
	// TurnID is the string turn_id field; "" when absent or not a string.
	TurnID string
}

// str reads field name as a string; ok is false when it is absent or of
// another type.
func (f frameIn) str(name string) (string, bool) {
	raw, present := f.Obj[name]
	if !present {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func parseFrame(at time.Time, binary bool, data []byte) frameIn {
	f := frameIn{At: at, Raw: data, Binary: binary}
	if binary || json.Unmarshal(data, &f.Obj) != nil {
		f.Obj = nil
		return f
	}
	f.Type, _ = f.str("type")
	f.TurnID, _ = f.str("turn_id")
	return f
}

// callIn is one tool_call the backend sent, as the session read it.
type callIn struct {
	Index    int // into the session's frames
	ID       string
	TurnID   string
	Name     string
	Args     json.RawMessage
	Readable bool // every field of the right type
	// Overlap names why the call came while it should have waited: another
	// call of the chat still unanswered, or a repeated pending id.
	Overlap  string
	answered bool
	withheld bool // the probe leaves it unanswered on purpose
}

// answerPolicy decides how the session answers a tool_call: the result
// text, and whether to answer at all. It runs on the session's reader.
type answerPolicy func(c *callIn) (result string, delay time.Duration, answer bool)

// vocabAt is the vocabulary in force from frame index From on.
type vocabAt struct {
	From  int
	Vocab Vocabulary
}

// session is one client connection the checker plays.
type session struct {
	hello Hello
	ws    *websocket.Conn
	wmu   sync.Mutex

	mu        sync.Mutex
	frames    []frameIn
	more      chan struct{} // closed and replaced on every frame and on close
	closed    bool
	closeCode int // 0 when the backend sent no close frame
	vocabs    []vocabAt
	calls     []*callIn
	turns     []sentTurn
	marks     map[string]int // frame count when a probe marked an event
	pongs     int
	policy    answerPolicy

	answers chan answerJob
	done    chan struct{} // closed when the reader ends
	stopAns chan struct{}
	wg      sync.WaitGroup
}

// sentTurn is one turn frame the checker sent.
type sentTurn struct {
	ID string
}

type answerJob struct {
	call  *callIn
	text  string
	after time.Time
}

// Hello is the hello frame the checker sends.
type Hello struct {
	Type       string     `json:"type"`
	Key        string     `json:"key"`
	ChatID     string     `json:"chat_id"`
	Accepts    []string   `json:"accepts,omitempty"`
	Vocabulary Vocabulary `json:"vocabulary"`
	Tools      []toolDecl `json:"tools,omitempty"`
}

// Vocabulary is hello.vocabulary; lists encode as lists even when empty.
type Vocabulary struct {
	EmotionIDs      []string          `json:"emotion_ids"`
	MotionIDs       []string          `json:"motion_ids"`
	EmotionTextMode string            `json:"emotion_text_mode"`
	EmotionTextMap  map[string]string `json:"emotion_text_map"`
}

// dial opens a session and sends hello. It does not wait for ready.
func dial(ctx context.Context, cfg *Config, h Hello, policy answerPolicy) (*session, error) {
	d := websocket.Dialer{HandshakeTimeout: cfg.ReadyWait}
	dctx, cancel := context.WithTimeout(ctx, cfg.ReadyWait)
	defer cancel()
	ws, resp, err := d.DialContext(dctx, cfg.URL, http.Header{})
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("dial %s: %w (HTTP %s)", cfg.URL, err, resp.Status)
		}
		return nil, fmt.Errorf("dial %s: %w", cfg.URL, err)
	}
	ws.SetReadLimit(readLimit)
	h.Type = "hello"
	s := &session{
		hello: h, ws: ws, more: make(chan struct{}), marks: map[string]int{}, policy: policy,
		vocabs: []vocabAt{{0, h.Vocabulary}}, answers: make(chan answerJob, 64),
		done: make(chan struct{}), stopAns: make(chan struct{}),
	}
	ws.SetPongHandler(func(string) error {
		s.mu.Lock()
		s.pongs++
		s.signalLocked()
		s.mu.Unlock()
		return nil
	})
	if err := s.send(h); err != nil {
		ws.Close()
		return nil, err
	}
	s.wg.Add(2)
	go s.read()
	go s.answer()
	return s, nil
}

func (s *session) signalLocked() {
	close(s.more)
	s.more = make(chan struct{})
}

// read records every frame until the socket closes.
func (s *session) read() {
	defer s.wg.Done()
	defer close(s.done)
	for {
		typ, data, err := s.ws.ReadMessage()
		if err != nil {
			s.mu.Lock()
			s.closed = true
			var ce *websocket.CloseError
			if errors.As(err, &ce) && ce.Code != websocket.CloseNoStatusReceived && ce.Code != websocket.CloseAbnormalClosure {
				s.closeCode = ce.Code
			}
			s.signalLocked()
			s.mu.Unlock()
			return
		}
		f := parseFrame(time.Now(), typ == websocket.BinaryMessage, data)
		s.mu.Lock()
		if len(s.frames) >= maxFrames {
			s.mu.Unlock()
			s.ws.Close() // the next read ends the loop
			continue
		}
		s.frames = append(s.frames, f)
		if f.Type == "tool_call" {
			s.onCallLocked(f, len(s.frames)-1)
		}
		s.signalLocked()
		s.mu.Unlock()
	}
}

// onCallLocked records a tool_call and queues its answer.
func (s *session) onCallLocked(f frameIn, idx int) {
	c := &callIn{Index: idx}
	var in struct {
		ID        string          `json:"id"`
		TurnID    string          `json:"turn_id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(f.Raw, &in) == nil && in.ID != "" {
		c.ID, c.TurnID, c.Name, c.Args = in.ID, in.TurnID, in.Name, in.Arguments
		c.Readable = len(in.Arguments) == 0 || in.Arguments[0] == '{'
	}
	for _, p := range s.calls {
		if p.answered {
			continue
		}
		if c.ID != "" && p.ID == c.ID {
			c.Overlap = fmt.Sprintf("id %q repeats a call still waiting for its result", c.ID)
		} else if c.Overlap == "" {
			c.Overlap = fmt.Sprintf("came while call %q (%s) still waited for its result", p.ID, p.Name)
		}
	}
	s.calls = append(s.calls, c)
	if !c.Readable || s.policy == nil {
		c.answered = true // the client drops an unreadable call; the backend's wait answers it
		return
	}
	text, delay, ok := s.policy(c)
	if !ok {
		return
	}
	select {
	case s.answers <- answerJob{call: c, text: text, after: time.Now().Add(delay)}:
	default:
		c.answered = true // more calls than a client would ever queue
	}
}

// answer sends queued tool_results one at a time, in arrival order, as
// the client does.
func (s *session) answer() {
	defer s.wg.Done()
	for {
		select {
		case <-s.stopAns:
			return
		case j := <-s.answers:
			if !s.sleepUntil(j.after) {
				return
			}
			s.sendResult(j.call, j.text)
		}
	}
}

func (s *session) sleepUntil(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-s.stopAns:
		return false
	}
}

// sendResult answers a call and marks it answered.
func (s *session) sendResult(c *callIn, text string) {
	s.send(map[string]any{"type": "tool_result", "id": c.ID, "turn_id": c.TurnID, "result": text})
	s.mu.Lock()
	c.answered = true
	s.signalLocked()
	s.mu.Unlock()
}

// send writes one JSON text frame.
func (s *session) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	return s.sendRaw(b)
}

func (s *session) sendRaw(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := s.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// ping sends a WebSocket ping. Its pong marks the moment the backend's
// socket had read every frame sent before it.
func (s *session) ping() (pongsBefore int) {
	s.mu.Lock()
	n := s.pongs
	s.mu.Unlock()
	s.ws.WriteControl(websocket.PingMessage, []byte("yui-sim check"), time.Now().Add(5*time.Second))
	return n
}

// mark records the current frame count under name.
func (s *session) mark(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.marks[name] = len(s.frames)
}

// setVocabulary sends a vocabulary frame and records it.
func (s *session) setVocabulary(v Vocabulary) error {
	s.mu.Lock()
	s.vocabs = append(s.vocabs, vocabAt{len(s.frames), v})
	s.mu.Unlock()
	return s.send(map[string]any{"type": "vocabulary", "vocabulary": v})
}

// waitFor waits until cond holds over the frames, the socket closes, ctx
// ends, idle passes with no frame (and no pong or answer), or waitCap
// idles pass in all. It reports whether cond held. cond runs under the
// session lock.
func (s *session) waitFor(ctx context.Context, idle time.Duration, cond func(s *session) bool) bool {
	ctx, cancel := context.WithTimeout(ctx, waitCap*idle)
	defer cancel()
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ok, closed, more := cond(s), s.closed, s.more
		s.mu.Unlock()
		if ok || closed {
			return ok
		}
		select {
		case <-more:
			if !timer.Stop() {
				<-timer.C
			}
			timer.Reset(idle)
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// linger waits d for late frames, or until the socket closes.
func (s *session) linger(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.done:
	case <-ctx.Done():
	}
}

// snapshot returns a copy of what the session recorded.
func (s *session) snapshot() transcript {
	s.mu.Lock()
	defer s.mu.Unlock()
	calls := make([]callIn, len(s.calls))
	for i, c := range s.calls {
		calls[i] = *c
	}
	marks := make(map[string]int, len(s.marks))
	for k, v := range s.marks {
		marks[k] = v
	}
	return transcript{
		Hello: s.hello, Frames: append([]frameIn(nil), s.frames...), Closed: s.closed,
		CloseCode: s.closeCode, Vocabs: append([]vocabAt(nil), s.vocabs...),
		Calls: calls, Turns: append([]sentTurn(nil), s.turns...), Marks: marks,
	}
}

// close sends a normal close, stops the answerer and waits for the reader.
func (s *session) close() {
	s.wmu.Lock()
	s.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	s.wmu.Unlock()
	select {
	case <-s.done:
	case <-time.After(time.Second):
	}
	s.ws.Close()
	close(s.stopAns)
	s.wg.Wait()
}

// transcript is what one session recorded, read by the rules.
type transcript struct {
	Hello     Hello
	Frames    []frameIn
	Closed    bool
	CloseCode int
	Vocabs    []vocabAt
	Calls     []callIn
	Turns     []sentTurn
	Marks     map[string]int
}

// vocabAt returns the vocabulary in force at frame index i.
func (t transcript) vocabAt(i int) Vocabulary {
	v := t.Vocabs[0].Vocab
	for _, va := range t.Vocabs {
		if va.From <= i {
			v = va.Vocab
		}
	}
	return v
}
