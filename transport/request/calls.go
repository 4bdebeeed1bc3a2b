package request

import (
	"bytes"
	"encoding/json"
	"strings"

	"yui/transport"
	"yui/transport/dataurl"
	"yui/transport/toolcall"
)

// Tool calls of a turn: running them, the generate_express cue, fitting
// results and images into a request.

// runCalls answers a round's calls in order: generate_express here, the
// declared tools through the runner with their own waits.
func (e *Engine) runCalls(t *turn, calls []Call, r *reply) []Result {
	res := make([]Result, 0, len(calls))
	for _, c := range calls {
		if t.ctx.Err() != nil {
			res = append(res, Result{Call: c, Text: toolcall.ErrTurnStopped})
			continue
		}
		args := json.RawMessage(c.Arguments)
		if strings.TrimSpace(c.Arguments) == "" {
			args = json.RawMessage("{}")
		}
		if c.Name == ExpressName {
			res = append(res, Result{Call: c, Text: e.express(r, args)})
			continue
		}
		call := transport.ToolCall{ID: c.ID, TurnID: t.id, Name: c.Name, Arguments: args}
		if tl, ok := t.more[c.Name]; ok && !e.runner.Declared(c.Name) {
			// A turn tool shows its own status (tools/mcp).
			text, images := e.fitResult(toolcall.RunOne(t.ctx, e.clk, tl, call))
			res = append(res, Result{Call: c, Text: text, Images: images})
			continue
		}
		declared := e.runner.Declared(c.Name)
		if declared {
			r.toolStatus(e.d.RunningStatus(), "running", c.Name)
		}
		// The runner answers an unknown tool and arguments that are not
		// a JSON object (or break the schema) with push's result strings.
		out := e.runner.Run(t.ctx, call)
		text, images := e.fitResult(out)
		if declared {
			r.toolStatus(true, "done", c.Name)
		}
		res = append(res, Result{Call: c, Text: text, Images: images})
	}
	return res
}

// express answers a generate_express call and queues its cue.
func (e *Engine) express(r *reply, args json.RawMessage) string {
	if !json.Valid(args) {
		return toolcall.InvalidField("arguments")
	}
	e.mu.Lock()
	s := e.exprSchema
	e.mu.Unlock()
	if s == nil {
		return toolcall.InvalidField("arguments")
	}
	if msg := s.Check(args); msg != "" {
		return msg
	}
	var c transport.Cue
	if err := json.Unmarshal(args, &c); err != nil {
		return toolcall.InvalidField("arguments")
	}
	r.cue(c)
	return "ok"
}

// fitResult applies the tool_result size limit to a result.
func (e *Engine) fitResult(res transport.ToolResult) (string, []string) {
	textJSON, _ := json.Marshal(res.Text)
	if len(textJSON) > ResultLimit {
		return toolcall.ErrResultTooLarge, nil
	}
	if len(res.Images) == 0 {
		return res.Text, nil
	}
	room := ResultLimit - len(textJSON)
	if e.opts.FitImages != nil {
		urls, ok := e.opts.FitImages(res.Images, room)
		if !ok {
			return toolcall.ErrResultTooLarge, nil
		}
		return res.Text, urls
	}
	// No fitter: keep the images that fit, leave out the others.
	var urls []string
	used := 2 // brackets
	for _, im := range res.Images {
		u := imageURL(im)
		if used+len(u)+3 > room {
			continue
		}
		used += len(u) + 3
		urls = append(urls, u)
	}
	return res.Text, urls
}

// MarshalBody encodes a request body as JSON without escaping <, > and &:
// the client_context block is full of them, and servers and logs read the
// body better as written.
func MarshalBody(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// turnImages are the turn's images, the screenshot first, then
// attachments, and what each one is.
func turnImages(t transport.Turn) (urls, notes []string) {
	if t.Screenshot != nil && len(t.Screenshot.Image.Data) > 0 {
		urls = append(urls, imageURL(t.Screenshot.Image))
		notes = append(notes, "the screenshot")
	}
	for _, im := range t.Attachments {
		urls = append(urls, imageURL(im))
		notes = append(notes, "an image the user attached")
	}
	return urls, notes
}

// imageURL is the data URL of an image part.
func imageURL(im transport.Image) string {
	return dataurl.Encode(dataurl.ImageMIME(im.MIME, im.Data), im.Data)
}
