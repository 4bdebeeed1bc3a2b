package request

import (
	"encoding/json"
	"sort"

	"yui/transport"
)

// ExpressName is the cue tool of the request transports (docs/protocol/client-context.md).
const ExpressName = "generate_express"

// ExpressDescription is generate_express's description, word for word.
const ExpressDescription = "Show an emotion, motion, emotion text or caption on the character before the sentence it belongs to"

// CueParagraph follows the card in the system message or instructions.
const CueParagraph = "To show an emotion, motion, emotion text or caption, call generate_express right before the sentence it belongs to, then write that sentence."

// Instructions is the card followed by CueParagraph.
func Instructions(card string) string {
	if card == "" {
		return CueParagraph
	}
	return card + "\n\n" + CueParagraph
}

// ToolSpec is one function tool as the request transports declare it.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

type enumProp struct {
	Type      string   `json:"type"`
	Enum      []string `json:"enum,omitempty"`
	MaxLength int      `json:"maxLength,omitempty"`
}

type expressProps struct {
	EmotionID   *enumProp `json:"emotion_id,omitempty"`
	MotionID    *enumProp `json:"motion_id,omitempty"`
	EmotionText *enumProp `json:"emotion_text,omitempty"`
	Caption     *enumProp `json:"caption"`
}

// ExpressSchema is generate_express's parameters schema for a vocabulary:
// enums from the vocabulary, and in "free" emotion-text mode an
// emotion_text of at most 16 code points with no enum. A property whose
// vocabulary list is empty is left out, since no value of it can render.
func ExpressSchema(v transport.Vocabulary) json.RawMessage {
	p := expressProps{Caption: &enumProp{Type: "string", MaxLength: 80}}
	if len(v.EmotionIDs) > 0 {
		p.EmotionID = &enumProp{Type: "string", Enum: v.EmotionIDs}
	}
	if len(v.MotionIDs) > 0 {
		p.MotionID = &enumProp{Type: "string", Enum: v.MotionIDs}
	}
	if v.EmotionTextMode == "free" {
		p.EmotionText = &enumProp{Type: "string", MaxLength: 16}
	} else if len(v.EmotionTextMap) > 0 {
		tags := make([]string, 0, len(v.EmotionTextMap))
		for t := range v.EmotionTextMap {
			tags = append(tags, t)
		}
		sort.Strings(tags)
		p.EmotionText = &enumProp{Type: "string", Enum: tags}
	}
	b, err := json.Marshal(struct {
		Type                 string       `json:"type"`
		Properties           expressProps `json:"properties"`
		AdditionalProperties bool         `json:"additionalProperties"`
	}{"object", p, false})
	if err != nil {
		panic(err) // plain strings and ints always marshal
	}
	return b
}
