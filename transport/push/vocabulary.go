package push

import "yui/transport"

// SetVocabulary replaces what the client renders and tells a connected
// backend when the set changed.
func (c *Client) SetVocabulary(v transport.Vocabulary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v = cloneVocabulary(v)
	if vocabularyEqual(c.vocab, v) {
		return
	}
	c.vocab = v
	if cn := c.cn; cn != nil && cn.ready {
		c.sendLocked(cn, "vocabulary", vocabularyFrame{Type: "vocabulary", Vocabulary: vocabJSON(v)})
	}
}

// vocabularyJSON is a Vocabulary whose lists and map encode as [] and {}
// rather than null.
type vocabularyJSON struct {
	EmotionIDs      []string          `json:"emotion_ids"`
	MotionIDs       []string          `json:"motion_ids"`
	EmotionTextMode string            `json:"emotion_text_mode"`
	EmotionTextMap  map[string]string `json:"emotion_text_map"`
}

func vocabJSON(v transport.Vocabulary) vocabularyJSON {
	j := vocabularyJSON{EmotionIDs: v.EmotionIDs, MotionIDs: v.MotionIDs, EmotionTextMode: v.EmotionTextMode, EmotionTextMap: v.EmotionTextMap}
	if j.EmotionIDs == nil {
		j.EmotionIDs = []string{}
	}
	if j.MotionIDs == nil {
		j.MotionIDs = []string{}
	}
	if j.EmotionTextMap == nil {
		j.EmotionTextMap = map[string]string{}
	}
	if j.EmotionTextMode == "" {
		j.EmotionTextMode = "free"
	}
	return j
}

// cloneVocabulary copies v so a caller mutating its slices later cannot
// change what the transport compares against.
func cloneVocabulary(v transport.Vocabulary) transport.Vocabulary {
	out := transport.Vocabulary{EmotionTextMode: v.EmotionTextMode}
	out.EmotionIDs = append([]string(nil), v.EmotionIDs...)
	out.MotionIDs = append([]string(nil), v.MotionIDs...)
	if v.EmotionTextMap != nil {
		out.EmotionTextMap = make(map[string]string, len(v.EmotionTextMap))
		for k, x := range v.EmotionTextMap {
			out.EmotionTextMap[k] = x
		}
	}
	return out
}

func vocabularyEqual(a, b transport.Vocabulary) bool {
	if a.EmotionTextMode != b.EmotionTextMode || len(a.EmotionIDs) != len(b.EmotionIDs) ||
		len(a.MotionIDs) != len(b.MotionIDs) || len(a.EmotionTextMap) != len(b.EmotionTextMap) {
		return false
	}
	for i := range a.EmotionIDs {
		if a.EmotionIDs[i] != b.EmotionIDs[i] {
			return false
		}
	}
	for i := range a.MotionIDs {
		if a.MotionIDs[i] != b.MotionIDs[i] {
			return false
		}
	}
	for k, x := range a.EmotionTextMap {
		if y, ok := b.EmotionTextMap[k]; !ok || x != y {
			return false
		}
	}
	return true
}
