package voice

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// EncodeWAV returns pcm (interleaved when f has several channels) as a
// 16-bit PCM WAV file.
func EncodeWAV(pcm []int16, f Format) []byte {
	ch := max(f.Channels, 1)
	n := len(pcm) * 2
	b := make([]byte, 44+n)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+n))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], uint16(ch))
	binary.LittleEndian.PutUint32(b[24:], uint32(f.SampleRate))
	binary.LittleEndian.PutUint32(b[28:], uint32(f.SampleRate*ch*2))
	binary.LittleEndian.PutUint16(b[32:], uint16(ch*2))
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(n))
	for i, s := range pcm {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(s))
	}
	return b
}

// maxWAVSamples bounds a decoded file (10 minutes at 48 kHz stereo): a
// --voice-in file is a test utterance, not an archive.
const maxWAVSamples = 10 * 60 * 48000 * 2

// DecodeWAV reads a WAV file of integer PCM (8, 16, 24 or 32 bits) or
// 32-bit float, any rate and channel count, and returns it mixed to mono
// 16-bit samples with its sample rate.
func DecodeWAV(data []byte) (mono []int16, rate int, err error) {
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return nil, 0, errors.New("wav: not a RIFF WAVE file")
	}
	var (
		format, channels, bits int
		haveFmt                bool
	)
	p := data[12:]
	for len(p) >= 8 {
		id := string(p[0:4])
		size := int64(binary.LittleEndian.Uint32(p[4:8]))
		p = p[8:]
		// Streaming writers leave the size unset: read to the end.
		if size > int64(len(p)) {
			size = int64(len(p))
		}
		body := p[:size]
		switch id {
		case "fmt ":
			if size < 16 {
				return nil, 0, errors.New("wav: fmt chunk too short")
			}
			format = int(binary.LittleEndian.Uint16(body[0:]))
			channels = int(binary.LittleEndian.Uint16(body[2:]))
			rate = int(binary.LittleEndian.Uint32(body[4:]))
			bits = int(binary.LittleEndian.Uint16(body[14:]))
			if format == 0xFFFE && size >= 26 { // WAVE_FORMAT_EXTENSIBLE: the sub-format's first two bytes
				format = int(binary.LittleEndian.Uint16(body[24:]))
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return nil, 0, errors.New("wav: data before fmt")
			}
			return decodeSamples(body, format, channels, bits, rate)
		}
		p = p[size:]
		if size%2 == 1 && len(p) > 0 { // chunks are word-aligned
			p = p[1:]
		}
	}
	return nil, 0, errors.New("wav: no data chunk")
}

func decodeSamples(body []byte, format, channels, bits, rate int) ([]int16, int, error) {
	if channels < 1 || channels > 32 {
		return nil, 0, fmt.Errorf("wav: %d channels", channels)
	}
	if rate < 1000 || rate > 384000 {
		return nil, 0, fmt.Errorf("wav: sample rate %d", rate)
	}
	var read func([]byte) float64
	switch {
	case format == 1 && bits == 8:
		read = func(b []byte) float64 { return (float64(b[0]) - 128) / 128 }
	case format == 1 && bits == 16:
		read = func(b []byte) float64 { return float64(int16(binary.LittleEndian.Uint16(b))) / 32768 }
	case format == 1 && bits == 24:
		read = func(b []byte) float64 {
			return float64(int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24)>>8) / 8388608
		}
	case format == 1 && bits == 32:
		read = func(b []byte) float64 { return float64(int32(binary.LittleEndian.Uint32(b))) / 2147483648 }
	case format == 3 && bits == 32:
		read = func(b []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))) }
	default:
		return nil, 0, fmt.Errorf("wav: unsupported encoding (format %d, %d bits)", format, bits)
	}
	width := bits / 8 * channels
	n := len(body) / width
	if n*channels > maxWAVSamples {
		return nil, 0, errors.New("wav: file too long")
	}
	out := make([]int16, n)
	for i := range n {
		var sum float64
		for c := range channels {
			off := i*width + c*bits/8
			sum += read(body[off : off+bits/8])
		}
		out[i] = clamp16(sum / float64(channels) * 32768)
	}
	return out, rate, nil
}

func clamp16(v float64) int16 {
	if math.IsNaN(v) {
		return 0
	}
	return int16(min(max(math.Round(v), -32768), 32767))
}

// Resample converts mono pcm from one rate to another by linear
// interpolation: enough for speech going to a recogniser.
func Resample(pcm []int16, from, to int) []int16 {
	if from == to || len(pcm) == 0 || from <= 0 || to <= 0 {
		return pcm
	}
	n := int(int64(len(pcm)) * int64(to) / int64(from))
	out := make([]int16, n)
	step := float64(from) / float64(to)
	for i := range out {
		x := float64(i) * step
		j := int(x)
		if j+1 >= len(pcm) {
			out[i] = pcm[len(pcm)-1]
			continue
		}
		f := x - float64(j)
		out[i] = clamp16(float64(pcm[j])*(1-f) + float64(pcm[j+1])*f)
	}
	return out
}
