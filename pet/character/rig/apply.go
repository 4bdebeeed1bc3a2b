package rig

import (
	"fmt"
	"math"
	"sort"

	"yui/pet/character/vrm"
)

// checkPose refuses a pose with NaN or infinite numbers, so that they
// never reach the vertices.
func checkPose(p Pose) error {
	if !finite(float64(p.Hips[0]), float64(p.Hips[1]), float64(p.Hips[2]),
		float64(p.Yaw), float64(p.Pitch), float64(p.Turn)) {
		return fmt.Errorf("rig: pose: hips, gaze or turn is not finite")
	}
	for name, q := range p.Bones {
		if !finite(float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])) {
			return fmt.Errorf("rig: pose: bone %q: rotation is not finite", name)
		}
	}
	for name, w := range p.Expressions {
		if !finite(float64(w)) {
			return fmt.Errorf("rig: pose: expression %q: weight is not finite", name)
		}
	}
	return nil
}

// skeleton is the world matrix of every node in pose p.
func (r *Rig) skeleton(p Pose) []mat4 {
	rot := make([]quat, len(r.m.Nodes))
	for i, b := range r.bone {
		rot[i] = identQ
		if q, ok := p.Bones[b]; ok && b != "" {
			rot[i] = q64(q).norm()
		}
	}
	r.gazeBones(p, rot)
	turn := axisAngle(vec3{0, 1, 0}, float64(p.Turn))
	return r.pose(r.m, rot, turn, v3(p.Hips))
}

func (r *Rig) apply(p Pose) (*Frame, error) {
	if err := checkPose(p); err != nil {
		return nil, err
	}
	world := r.skeleton(p)
	for i := range world {
		if !finiteM(world[i]) {
			return nil, fmt.Errorf("rig: node %d: its posed transform is not finite", i)
		}
	}
	ew := r.expressionWeights(p)
	morph := r.morphWeights(ew)
	joints := r.jointMatrices(world)
	f := &Frame{Prims: make([]Posed, 0, len(r.prims)), Materials: r.materials(ew)}
	for _, in := range r.prims {
		f.Prims = append(f.Prims, r.deform(in, world, joints, morph[in.mesh]))
	}
	return f, nil
}

func (r *Rig) bounds(p Pose) (vrm.Vec3, vrm.Vec3, error) {
	f, err := r.apply(p)
	if err != nil {
		return vrm.Vec3{}, vrm.Vec3{}, err
	}
	lo := vrm.Vec3{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi := vrm.Vec3{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	any := false
	for _, pr := range f.Prims {
		for _, v := range pr.Positions {
			any = true
			for k := 0; k < 3; k++ {
				lo[k] = min(lo[k], v[k])
				hi[k] = max(hi[k], v[k])
			}
		}
	}
	if !any {
		return vrm.Vec3{}, vrm.Vec3{}, fmt.Errorf("rig: the model has no vertices")
	}
	return lo, hi, nil
}

// skinMats are one skin's joint matrices and their normal matrices.
type skinMats struct {
	pos []mat4
	nrm [][9]float64
}

// jointMatrices are world(joint) × inverseBind for every skin.
func (r *Rig) jointMatrices(world []mat4) []skinMats {
	out := make([]skinMats, len(r.m.Skins))
	for s, sk := range r.m.Skins {
		out[s].pos = make([]mat4, len(sk.Joints))
		out[s].nrm = make([][9]float64, len(sk.Joints))
		for k, j := range sk.Joints {
			m := world[j]
			if len(sk.InverseBindMatrices) > 0 {
				m = m.mul(m64(sk.InverseBindMatrices[k]))
			}
			out[s].pos[k] = m
			out[s].nrm[k] = normalMat(m)
		}
	}
	return out
}

// deform morphs and then skins (or moves rigidly) one primitive.
// UVs, Colors and Indices are the model's own slices, shared, not copied.
func (r *Rig) deform(in instance, world []mat4, skins []skinMats, weights []float64) Posed {
	pr := r.m.Meshes[in.mesh].Primitives[in.prim]
	nv := len(pr.Positions)
	pos, nrm := r.morph(pr, weights)
	out := Posed{Positions: make([]vrm.Vec3, nv), UVs: pr.UVs, Colors: pr.Colors,
		Indices: pr.Indices, Material: pr.Material}
	if pr.Normals != nil {
		out.Normals = make([]vrm.Vec3, nv)
	}
	own := world[in.node]
	ownN := normalMat(own)
	var sk skinMats
	if in.skinned {
		sk = skins[r.m.Nodes[in.node].Skin]
	}
	for i := 0; i < nv; i++ {
		m, nm := own, ownN
		if in.skinned {
			m, nm = blend(sk, pr.Joints[i], pr.Weights[i], own, ownN)
		}
		var p vec3
		if pos != nil {
			p = pos[i]
		} else {
			p = v3(pr.Positions[i])
		}
		out.Positions[i] = m.point(p).f32()
		if out.Normals != nil {
			var n vec3
			if nrm != nil {
				n = nrm[i]
			} else {
				n = v3(pr.Normals[i])
			}
			out.Normals[i] = vec3{
				nm[0]*n[0] + nm[3]*n[1] + nm[6]*n[2],
				nm[1]*n[0] + nm[4]*n[1] + nm[7]*n[2],
				nm[2]*n[0] + nm[5]*n[1] + nm[8]*n[2],
			}.norm().f32()
		}
	}
	return out
}

// morph adds the weighted morph targets to a primitive's positions and
// normals; nil, nil when no target is in use (the model's own are used).
func (r *Rig) morph(pr vrm.Primitive, weights []float64) (pos, nrm []vec3) {
	nv := len(pr.Positions)
	for t := range pr.Targets {
		if t < len(weights) && weights[t] != 0 {
			pos = make([]vec3, nv)
			break
		}
	}
	if pos == nil {
		return nil, nil
	}
	for i, v := range pr.Positions {
		pos[i] = v3(v)
	}
	if pr.Normals != nil {
		nrm = make([]vec3, nv)
		for i := range nrm {
			nrm[i] = v3(pr.Normals[i])
		}
	}
	for t, tg := range pr.Targets {
		if t >= len(weights) || weights[t] == 0 {
			continue
		}
		w := weights[t]
		for i := 0; i < nv && i < len(tg.Positions); i++ {
			d := tg.Positions[i]
			pos[i][0] += w * float64(d[0])
			pos[i][1] += w * float64(d[1])
			pos[i][2] += w * float64(d[2])
		}
		for i := 0; nrm != nil && i < nv && i < len(tg.Normals); i++ {
			d := tg.Normals[i]
			nrm[i][0] += w * float64(d[0])
			nrm[i][1] += w * float64(d[1])
			nrm[i][2] += w * float64(d[2])
		}
	}
	return pos, nrm
}

// blend is the weighted sum of up to four joint matrices, the weights
// normalised; all-zero weights leave the vertex on its node.
func blend(sk skinMats, j [4]uint16, w vrm.Vec4, own mat4, ownN [9]float64) (mat4, [9]float64) {
	var sum float64
	used, last := 0, 0
	for k := 0; k < 4; k++ {
		if w[k] > 0 {
			sum += float64(w[k])
			used, last = used+1, k
		}
	}
	if sum <= 0 {
		return own, ownN
	}
	if used == 1 { // one joint: its matrices as they are
		return sk.pos[j[last]], sk.nrm[j[last]]
	}
	var m mat4
	var n [9]float64
	for k := 0; k < 4; k++ {
		if w[k] <= 0 {
			continue
		}
		f := float64(w[k]) / sum
		jm, jn := &sk.pos[j[k]], &sk.nrm[j[k]]
		for e := 0; e < 16; e++ {
			m[e] += f * jm[e]
		}
		for e := 0; e < 9; e++ {
			n[e] += f * jn[e]
		}
	}
	return m, n
}

// sortedNames are a map's keys in order, so that sums run in the same
// order on every call (the same pose gives the same bytes).
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
