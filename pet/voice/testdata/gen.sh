#!/bin/sh
# Regenerates the speech samples the VAD tests mix with noise: espeak-ng
# voices (a male, a female, a fast and a slow speaker) at 16 kHz mono.
set -eu
cd "$(dirname "$0")"
say() { espeak-ng -v "$1" -s "$2" -w tmp.wav "$3"; sox tmp.wav -r 16000 -c 1 -b 16 "$4" norm -3; rm tmp.wav; }
say en-us 160 "Could you tell me what the weather looks like this afternoon?" speech-male.wav
say en+f3 175 "Please remind me to water the plants before dinner." speech-female.wav
say en-gb+m3 230 "Open the notes from yesterday and read the first line." speech-fast.wav
say en-us+f2 120 "Good morning, how are you today?" speech-slow.wav
