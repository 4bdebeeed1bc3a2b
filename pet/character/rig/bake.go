package rig

import (
	"errors"

	"yui/pet/character/vrm"
)

func (r *Rig) bake(name string, c *vrm.Clip, fps float64) (Motion, error) {
	return Motion{}, errors.New("rig: baking clips is not written yet")
}
