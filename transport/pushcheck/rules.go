package pushcheck

import (
	"errors"
	"fmt"
	"strings"
)

// rule is one backend rule the checker observes.
type rule struct {
	// ID names the rule in reports and in --only.
	ID string
	// Doc and Spec are the spec file and the sentence the rule checks.
	Doc, Spec string
	// Needs lists the probes whose records the rule reads.
	Needs []probeID
	eval  func(ev *evidence) (Status, string)
}

const (
	docPush    = "docs/protocol/push-transport.md"
	docContext = "docs/protocol/client-context.md"
	docTools   = "docs/protocol/client-tools.md"
)

// general are the probes every frame-level rule reads.
var general = []probeID{probeMain, probeBare, probeVocab}

// rules is the table of every checked rule, in report order.
var rules = []*rule{
	{ID: "ready", Doc: docPush, Needs: []probeID{probeMain},
		Spec: "The client sends hello first. Other frames follow the backend's ready. ... The frame may carry max_turn_bytes, a positive integer naming the largest turn frame the backend accepts, in UTF-8 bytes.",
		eval: evalReady},
	{ID: "key.reject", Doc: docPush, Needs: []probeID{probeKey},
		Spec: "The backend closes the socket with code 4401 on a wrong key and sends nothing.",
		eval: evalKey},
	{ID: "frame.json", Doc: docPush, Needs: general,
		Spec: "Every frame is one JSON object with a type field.",
		eval: evalJSON},
	{ID: "frame.types", Doc: docPush, Needs: general,
		Spec: "A backend sends a client no frame type outside the base set and its accepts, and reads a value that is not a list of strings as absent.",
		eval: evalTypes},
	{ID: "render.shape", Doc: docPush, Needs: general,
		Spec: "segments: Ordered. Each segment's cues render first, then its speech goes to TTS and the bubble. ... A cue is a generate_express argument object as defined in client-context.md: emotion_id, motion_id, emotion_text, caption, all optional.",
		eval: evalRenderShape},
	{ID: "cue.vocabulary", Doc: docContext, Needs: general,
		Spec: "The enums come from the current vocabulary. In free emotion-text mode emotion_text is a string of at most 16 code points with no enum. (push-transport.md: vocabulary is what the client renders right now, sent again whenever the renderable set changes.)",
		eval: evalCues},
	{ID: "turn.order", Doc: docPush, Needs: general,
		Spec: "Every frame the backend sends for the turn carries the same turn_id, and a turn_end frame closes it.",
		eval: evalOrder},
	{ID: "turn_end.once", Doc: docPush, Needs: general,
		Spec: "Sent once per turn after its last render; a turn with no render sends it alone.",
		eval: evalTurnEnd},
	{ID: "error.then_turn_end", Doc: docPush, Needs: []probeID{probeMain},
		Spec: "Sent only to a client whose hello lists error in accepts, when a turn fails, before that turn's turn_end. ... message: The backend's own failure text, one line.",
		eval: evalError},
	{ID: "stop", Doc: docPush, Needs: []probeID{probeStop},
		Spec: "The backend stops generating for those of them that are still running and sends each its turn_end.",
		eval: evalStop},
	{ID: "reset", Doc: docPush, Needs: []probeID{probeReset},
		Spec: "The backend starts a new conversation under the same chat_id. ... Work the backend delegated in the old conversation ends with it, and the next delegations frame lists nothing.",
		eval: evalReset},
	{ID: "tool_call.declared", Doc: docPush, Needs: []probeID{probeMain, probeBare},
		Spec: "name: The tool name, one of the functions the client declared in hello.tools. ... A backend that speaks tool_call against a client that sent no tools registers nothing.",
		eval: evalToolDeclared},
	{ID: "tool_call.schema", Doc: docTools, Needs: []probeID{probeMain},
		Spec: "arguments: The call's arguments, a JSON object shaped by the tool's schema (push-transport.md), the schemas of client-tools.md.",
		eval: evalToolSchema},
	{ID: "tool_call.one_at_a_time", Doc: docPush, Needs: []probeID{probeMain},
		Spec: "The adapter sends one call at a time per chat: a handler whose chat has a call in flight waits for its turn, so the client never holds a queue in practice.",
		eval: evalToolSerial},
	{ID: "tool_call.wait", Doc: docPush, Needs: []probeID{probeToolWait},
		Spec: "The handler of a declared tool sends tool_call and blocks on tool_result for the wait in the limits table, counted from the send. ... A tool_result whose id is absent from the pending table is ignored. ... A wait that passes answers error: no reply from the client within <n> s.",
		eval: evalToolWait},
	{ID: "tool_status", Doc: docPush, Needs: general,
		Spec: "state: \"running\" when the tool call starts, \"done\" when it returns, \"failed\" when it failed. Sent while the turn runs, once per state change of a tool call.",
		eval: evalToolStatus},
	{ID: "delegations", Doc: docPush, Needs: general,
		Spec: "The full list of work the backend has handed to background workers for this conversation ... (id, title cut to 120 code points, started_at and ended_at in epoch ms, state running or done, status and summary on done items only, summary cut to 2,000, at most 50 entries).",
		eval: evalDelegations},
	{ID: "reasoning", Doc: docPush, Needs: general,
		Spec: "The backend's reasoning as it is written, sent while the turn is running. (turn_id, delta: the reasoning written since the previous reasoning frame.)",
		eval: evalReasoning},
	{ID: "usage", Doc: docPush, Needs: general,
		Spec: "usage: Optional. The token usage of the turn's last LLM call ...: input_tokens, output_tokens and total_tokens, all numbers.",
		eval: evalUsage},
	{ID: "size.out", Doc: docPush, Needs: append([]probeID{probeSize}, general...),
		Spec: "Text frame size, either direction, every frame but turn and tool_result with images: 256 KiB.",
		eval: evalSizeOut},
	{ID: "size.in", Doc: docPush, Needs: []probeID{probeSize},
		Spec: "turn frame size: 256 KiB, or the max_turn_bytes value the backend stated in ready.",
		eval: evalSizeIn},
	{ID: "chat.second_connection", Doc: docPush, Needs: []probeID{probeSecond},
		Spec: "chat_id: The conversation the backend keeps state under ... reused on every connection. The client reconnects ... on every close but 4401. (On socket replacement, the old socket's calls are answered error: client disconnected.)",
		eval: evalSecond},
}

// evidence is every probe's record.
type evidence struct {
	cfg    *Config
	probes map[probeID]*probeResult
}

// named is a probe's transcript with its probe's name.
type named struct {
	Probe probeID
	transcript
}

// sessions returns the transcripts of the probes; a probe that could not
// run makes the rule fail with its error.
func (ev *evidence) sessions(ids ...probeID) ([]named, error) {
	var out []named
	for _, id := range ids {
		p := ev.probes[id]
		if p == nil {
			return nil, fmt.Errorf("probe %s did not run", id)
		}
		if p.Err != nil {
			return nil, fmt.Errorf("probe %s: %w", id, p.Err)
		}
		out = append(out, named{id, p.T})
	}
	return out, nil
}

// probeErr turns a probe error into a verdict.
func probeErr(err error) (Status, string) {
	if errors.Is(err, errNoKey) {
		return Skip, "no --key given, so there is no wrong key to send; pass the key the backend requires"
	}
	return Fail, err.Error()
}

// findings collects what a rule saw go wrong.
type findings struct {
	n     int
	first []string
}

func (f *findings) add(format string, args ...any) {
	f.n++
	if len(f.first) < 3 {
		f.first = append(f.first, fmt.Sprintf(format, args...))
	}
}

// verdict is FAIL with the first findings, or PASS with pass.
func (f *findings) verdict(pass string) (Status, string) {
	if f.n == 0 {
		return Pass, pass
	}
	d := strings.Join(f.first, "; ")
	if f.n > len(f.first) {
		d += fmt.Sprintf("; and %d more", f.n-len(f.first))
	}
	return Fail, d
}

// readable reports whether the client reads f at all: a text frame within
// the size limit holding a JSON object with a string type.
func readable(f frameIn) bool {
	return !f.Binary && len(f.Raw) <= TextFrameLimit && f.Obj != nil && f.Type != ""
}

// where names a frame in a detail line.
func where(p probeID, i int) string { return fmt.Sprintf("%s#%d", p, i+1) }
