package localservertest

import "net/http"

// Source is where a fake's behaviour was read: the repository, the
// version read (a tag or commit), the file and the functions the fake
// follows. A fake without one was written from an idea of the server, not
// from the server (TestFakesCiteTheirSource).
type Source struct {
	Repo    string // owner/name on GitHub
	Version string // the tag or commit read
	File    string
	Func    string
}

// Complete reports whether every field is filled.
func (s Source) Complete() bool {
	return s.Repo != "" && s.Version != "" && s.File != "" && s.Func != ""
}

// The service names, as transport/localserver names them.
const (
	Speech        = "speech"
	Transcription = "transcription"
)

// Server is one row of the contract: a server and version as people run
// it, its fake, and what Yui must make of it. The discovery test, the
// probe-against-every-fake test and the engines' contract test in
// pet/speech all read this table: adding a server is adding a row.
type Server struct {
	Name string // the row's name in test output
	// Kind and Version are what discovery must name it (localserver's
	// Kind values; Version "" when the server has one API).
	Kind, Version string
	Port          int // its usual port
	Source        Source
	New           func() http.Handler // a fresh fake
	// Services are the services discovery must find, in order.
	Services []string
	// Voices are the voices discovery must list for speech (nil: none).
	Voices []string
	// Rate is the sample rate of its speech; 0 for a transcription-only
	// server. The engine must play ToneHz at this rate as ToneHz.
	Rate int
	// NoSpeech says why Yui cannot speak through it although discovery
	// names it ("" when it can).
	NoSpeech string
}

// Servers is the table, one row per server and version.
func Servers() []Server {
	return []Server{
		{Name: "Kokoro-FastAPI", Kind: "Kokoro-FastAPI", Port: 8880, Source: kokoroSource,
			New: func() http.Handler { return &Kokoro{} }, Services: []string{Speech},
			Voices: kokoroVoices, Rate: 24000},
		{Name: "GPT-SoVITS api_v2", Kind: "GPT-SoVITS", Port: 9880, Source: gptSoVITSSource,
			New: func() http.Handler { return &GPTSoVITS{} }, Services: []string{Speech}, Rate: 32000},
		{Name: "Piper first server (rhasspy/piper)", Kind: "Piper", Version: PiperFirstVersion, Port: 5000,
			Source: piperFirstSource, New: func() http.Handler { return &PiperFirst{} }, Services: []string{Speech},
			Rate: 22050},
		{Name: "Piper 1.3-1.4 (piper1-gpl, POST /)", Kind: "Piper", Version: PiperRootVersion, Port: 5000,
			Source: piperRootSource, New: func() http.Handler { return &PiperRoot{} }, Services: []string{Speech},
			Voices: piperVoiceNames(), Rate: 22050},
		{Name: "Piper 1.5+ (piper1-gpl, /synthesize)", Kind: "Piper", Version: PiperVersion, Port: 5000,
			Source: piperSource, New: func() http.Handler { return &Piper{} }, Services: []string{Speech},
			Voices: piperVoiceNames(), Rate: 22050},
		{Name: "AllTalk v1 (XTTS)", Kind: "AllTalk", Version: "v1", Port: 7851, Source: allTalkV1Source,
			New: func() http.Handler { return &AllTalkV1{} }, Services: []string{Speech},
			Voices: allTalkV1Voices, Rate: 24000},
		{Name: "AllTalk v2 (Piper engine)", Kind: "AllTalk", Version: "v2", Port: 7851, Source: allTalkV2Source,
			New: func() http.Handler { return &AllTalkV2{} }, Services: []string{Speech},
			Voices: AllTalkOpenAIVoices, Rate: 22050},
		{Name: "speaches (Kokoro and Whisper)", Kind: "speaches", Port: 8000, Source: speachesSource,
			New: func() http.Handler { return &Speaches{} }, Services: []string{Speech, Transcription},
			Voices: speachesKokoroVoices, Rate: 24000},
		{Name: "speaches (Piper voice)", Kind: "speaches", Port: 8000, Source: speachesSource,
			New: func() http.Handler { return &Speaches{Piper: true} }, Services: []string{Speech, Transcription},
			Voices: []string{"amy"}, Rate: 22050},
		{Name: "openedai-speech", Kind: "openedai-speech", Port: 8000, Source: openedAISource,
			New: func() http.Handler { return &OpenedAI{} }, Services: []string{Speech},
			Voices: OpenedAIVoices, Rate: 22050},
		{Name: "whisper.cpp server", Kind: "whisper.cpp", Port: 8080, Source: whisperCppSource,
			New: func() http.Handler { return &WhisperCpp{Text: "hello there"} }, Services: []string{Transcription}},
	}
}
