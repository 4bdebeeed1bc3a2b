package rig

import (
	"fmt"
	"math"

	"yui/pet/character/vrm"
)

// state is what New precomputes so that Apply only walks the nodes once
// and deforms the vertices.
type state struct {
	order []int // parents before children
	// The rest (bind) pose: each node's local TRS and its world rotation.
	restT, restS []vec3
	restR        []quat
	restWorldR   []quat
	restWorld    []mat4
	// bone is the humanoid name of each node ("" for none); stance is the
	// relaxed stance's normalised rotation of each node and stanceAcc the
	// product of the stance rotations from the root down to it.
	bone      []string
	stance    []quat
	stanceAcc []quat
	bindPose  string
	// tFix turns a bone from the bind pose to a T-pose (the upper arms of
	// a model bound in an A-pose), for clips made against a T-pose.
	tFix  []quat
	prims []instance
	exprs map[string]int
	// footRest is the lowest foot joint's height in the stance (NaN when
	// the model has no feet); motions keep the feet there.
	footRest float64
}

// instance is one primitive of a mesh shown by one node.
type instance struct {
	node, mesh, prim int
	skinned          bool
}

func newRig(m *vrm.Model) (*Rig, error) {
	order, err := check(m)
	if err != nil {
		return nil, err
	}
	r := &Rig{m: m}
	s := &r.state
	s.order = order
	n := len(m.Nodes)
	s.restT, s.restS = make([]vec3, n), make([]vec3, n)
	s.restR, s.restWorldR = make([]quat, n), make([]quat, n)
	s.restWorld = make([]mat4, n)
	s.bone = make([]string, n)
	s.stance, s.stanceAcc = make([]quat, n), make([]quat, n)
	s.tFix = make([]quat, n)
	for i, nd := range m.Nodes {
		s.restT[i], s.restS[i] = v3(nd.Translation), v3(nd.Scale)
		s.restR[i] = q64(nd.Rotation).norm()
		s.stance[i], s.tFix[i] = identQ, identQ
	}
	for name, b := range m.Humanoid {
		s.bone[b] = name
	}
	for _, i := range order {
		p := m.Nodes[i].Parent
		local := trs(s.restT[i], s.restR[i], s.restS[i])
		if p < 0 {
			s.restWorld[i], s.restWorldR[i] = local, s.restR[i]
		} else {
			s.restWorld[i] = s.restWorld[p].mul(local)
			s.restWorldR[i] = s.restWorldR[p].mul(s.restR[i]).norm()
		}
		if !finiteM(s.restWorld[i]) {
			return nil, fmt.Errorf("rig: node %d: its world transform is not finite", i)
		}
	}
	s.computeStance(m)
	for i, nd := range m.Nodes {
		if nd.Mesh < 0 {
			continue
		}
		for p, pr := range m.Meshes[nd.Mesh].Primitives {
			sk := nd.Skin >= 0 && pr.Joints != nil && pr.Weights != nil
			s.prims = append(s.prims, instance{node: i, mesh: nd.Mesh, prim: p, skinned: sk})
		}
	}
	s.exprs = make(map[string]int, len(m.Expressions))
	for i, e := range m.Expressions {
		if _, dup := s.exprs[e.Name]; !dup {
			s.exprs[e.Name] = i
		}
	}
	s.footRest = math.NaN()
	if y, ok := s.footHeight(s.pose(m, nil, identQ, vec3{})); ok {
		s.footRest = y
	}
	return r, nil
}

// BindPose says how the model was bound: "T" (the upper arms level), "A"
// (the upper arms lowered) or "" when it has no upper arms.
func (r *Rig) BindPose() string { return r.bindPose }

// pose walks the nodes and returns their world matrices for the
// normalised bone rotations rot (by node; nil is the stance), the figure
// turned by turn about +Y and moved by move.
//
// The normalised space (three-vrm's "normalized bones", here with the
// relaxed stance as the rest): a humanoid bone's world rotation is
// B × S × R where R is its bind-pose world rotation, S the product of the
// stance rotations from the root down to it and B the product of the
// pose rotations from the root down to it. Every rotation therefore acts
// about world-aligned axes through the joint, whatever the bone's own
// axes, and a motion means the same on every model. Other nodes keep
// their rest rotation relative to their parent.
func (s *state) pose(m *vrm.Model, rot []quat, turn quat, move vec3) []mat4 {
	n := len(m.Nodes)
	world := make([]mat4, n)
	worldR := make([]quat, n)
	acc := make([]quat, n) // B: the pose rotations' product
	figure := trs(move, turn, vec3{1, 1, 1})
	for _, i := range s.order {
		p := m.Nodes[i].Parent
		pw, pr, pacc := figure, turn, turn
		if p >= 0 {
			pw, pr, pacc = world[p], worldR[p], acc[p]
		}
		acc[i] = pacc
		local := s.restR[i]
		if s.bone[i] != "" {
			if rot != nil {
				acc[i] = pacc.mul(rot[i])
			}
			want := acc[i].mul(s.stanceAcc[i]).mul(s.restWorldR[i])
			local = pr.conj().mul(want).norm()
		}
		worldR[i] = pr.mul(local).norm()
		world[i] = pw.mul(trs(s.restT[i], local, s.restS[i]))
	}
	return world
}

// footHeight is the lowest foot, toe or lower-leg end joint's height.
func (s *state) footHeight(world []mat4) (float64, bool) {
	y, ok := math.Inf(1), false
	for i, b := range s.bone {
		switch b {
		case "leftFoot", "rightFoot", "leftToes", "rightToes":
			y, ok = math.Min(y, world[i].origin()[1]), true
		}
	}
	return y, ok
}

// boneNode is the node of humanoid bone name, -1 when the model has none.
func (r *Rig) boneNode(name string) int {
	if b, ok := r.m.Humanoid[name]; ok {
		return b
	}
	return -1
}
