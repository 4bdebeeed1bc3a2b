// Package dial is the transport factory: which transport a preset's
// chat_api gets — the push WebSocket (transport/push), Chat Completions
// (transport/chatcompletions) or the Responses API
// (transport/responses). It lives beside them, not in package transport,
// which its children import.
package dial

import (
	"fmt"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/push"
	"yui/transport/responses"
)

// API is a preset's chat_api (pet/settings' ChatAPI constants name the
// same values).
type API string

// The chat APIs a preset may name.
const (
	Push            API = "push"
	ChatCompletions API = "chat_completions"
	Responses       API = "responses"
)

// New builds the transport of api with opts; "" is Chat Completions. A
// failure is a nil interface and the error: an unknown api, or options
// the transport refuses.
func New(api API, opts transport.Options) (transport.Transport, error) {
	switch api {
	case Push:
		c, err := push.New(opts)
		if err != nil {
			return nil, err
		}
		return c, nil
	case ChatCompletions, "":
		c, err := chatcompletions.New(opts)
		if err != nil {
			return nil, err
		}
		return c, nil
	case Responses:
		c, err := responses.New(opts)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, fmt.Errorf("unknown chat_api %q (push, chat_completions or responses)", api)
}
