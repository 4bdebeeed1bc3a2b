package rig

import (
	"errors"

	"yui/pet/character/vrm"
)

// The posing is being written (its own files replace this one).
type state struct{}

func newRig(m *vrm.Model) (*Rig, error)     { return nil, errors.New("rig: not yet implemented") }
func (r *Rig) apply(p Pose) (*Frame, error) { return nil, errors.New("rig: not yet implemented") }
func (r *Rig) bounds(p Pose) (vrm.Vec3, vrm.Vec3, error) {
	return vrm.Vec3{}, vrm.Vec3{}, errors.New("rig: not yet implemented")
}
func (r *Rig) motions() []Motion { return nil }
func (r *Rig) bake(name string, c *vrm.Clip, fps float64) (Motion, error) {
	return Motion{}, errors.New("rig: not yet implemented")
}
