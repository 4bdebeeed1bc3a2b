package voice

import (
	"context"
	"math"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"yui/transport/localserver"
	"yui/transport/localserver/localservertest"
)

// The contract of every transcription server in localservertest's table
// (fakes written from each server's code): discovery finds it, the engine
// it names is built as the Voice tab builds it (the found URL, engine and
// model), and the utterance reaches the model, whose text comes back.
func TestTranscriptionServerContract(t *testing.T) {
	tone := make([]int16, 16000)
	for i := range tone {
		tone[i] = int16(8000 * math.Sin(float64(i)*2*math.Pi*300/16000))
	}
	wav := EncodeWAV(tone, Mono16k)
	for _, row := range localservertest.Servers() {
		if !slices.Contains(row.Services, localservertest.Transcription) {
			continue
		}
		t.Run(row.Name, func(t *testing.T) {
			srv := httptest.NewServer(row.New())
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			port, _ := strconv.Atoi(u.Port())
			found, ok := localserver.FirstAudio(localserver.ScanAudio(context.Background(),
				localserver.AudioOptions{Ports: []int{port}}), localserver.ServiceTranscription)
			if !ok {
				t.Fatal("no transcription server found")
			}
			var tr interface {
				Transcribe(context.Context, []byte) (string, error)
			}
			switch found.Engine {
			case localserver.EngineWhisperCpp:
				tr = &WhisperCpp{BaseURL: found.URL, Language: "en"}
			default:
				tr = &OpenAI{BaseURL: found.URL, Model: found.Model, Language: "en"}
			}
			text, err := tr.Transcribe(context.Background(), wav)
			if err != nil || text != "hello there" {
				t.Errorf("%s heard %q, %v", found.Name(), text, err)
			}
		})
	}
}
