package speech

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"yui/transport/localserver"
)

// serverVoicesWait bounds the question: a local server answers it in
// milliseconds, and a remote one that is slow leaves the usual names.
const serverVoicesWait = 3 * time.Second

// maxVoiceList bounds the answer read (Kokoro-FastAPI lists about 70).
const maxVoiceList = 1 << 20

// ServerVoices asks an OpenAI-compatible speech server for the voices it
// has: GET {base}/audio/voices, Kokoro-FastAPI's own endpoint (its
// README, "Voices"), {"voices":["af_bella",…]}. OpenAI and most other
// servers have no such endpoint: an error then, and the caller offers
// the usual names (Voices). No key is sent: the servers that list their
// voices so are local and ask for none. Kokoro's voice names say their language
// (kokoroLanguage). It waits on the network: call it off the UI goroutine.
func ServerVoices(ctx context.Context, c *http.Client, base string) ([]Voice, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("speech base URL %q is not an http(s) URL", base)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/audio/voices"
	ctx, cancel := context.WithTimeout(ctx, serverVoicesWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("asking %s for its voices: %w", u.Redacted(), err)
	}
	if c == nil {
		c = defaultTTSClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("asking %s for its voices: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxVoiceList))
	if err != nil {
		return nil, fmt.Errorf("reading %s's voices: %w", u.Redacted(), err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s lists no voices (HTTP %d)", u.Redacted(), resp.StatusCode)
	}
	names, ok := localserver.ParseVoices(body)
	if !ok {
		return nil, fmt.Errorf("%s answered with no voice list", u.Redacted())
	}
	vs := make([]Voice, 0, len(names))
	for _, n := range names {
		vs = append(vs, kokoroVoice(n))
	}
	return vs, nil
}

// kokoroLanguages are the languages of Kokoro's voice names by their
// first letter (the voice list of Kokoro-82M's model card): af_bella is American English,
// jf_alpha Japanese, zm_yunxi Mandarin.
var kokoroLanguages = map[byte]string{
	'a': "en-US", 'b': "en-GB", 'e': "es", 'f': "fr", 'h': "hi", 'i': "it", 'j': "ja", 'p': "pt-BR", 'z': "zh",
}

// kokoroVoice names a voice of a server's list: a Kokoro name, letter,
// f or m, underscore, name ("af_bella"), gets its language and "Bella";
// any other name (a mix "af_bella+af_sky", a server's own) is kept as is.
func kokoroVoice(id string) Voice {
	v := Voice{ID: id, Name: id}
	if len(id) > 3 && (id[1] == 'f' || id[1] == 'm') && id[2] == '_' && !strings.ContainsAny(id, "+,()") {
		if l, ok := kokoroLanguages[id[0]]; ok {
			name := []rune(strings.ReplaceAll(id[3:], "_", " "))
			name[0] = unicode.ToUpper(name[0])
			v.Language, v.Name = l, string(name)
		}
	}
	return v
}

// VoicesAt lists engine's voices for a preset whose server is at base:
// an OpenAI-compatible server that lists its own (ServerVoices) gives
// those, and fromServer is true; otherwise it is Voices. Call it off the
// UI goroutine.
func VoicesAt(ctx context.Context, engine, base string) (vs []Voice, fromServer bool, err error) {
	if engine == EngineOpenAI && strings.TrimSpace(base) != "" {
		if vs, err := ServerVoices(ctx, nil, base); err == nil && len(vs) > 0 {
			return vs, true, nil
		}
	}
	vs, err = Voices(ctx, engine)
	return vs, false, err
}
