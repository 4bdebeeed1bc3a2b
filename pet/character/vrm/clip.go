package vrm

import (
	"errors"
	"io"
)

func readClip(r io.Reader) (*Clip, error) { return nil, errors.New("vrm: not yet implemented") }
