package rig

import (
	"errors"
	"fmt"

	"yui/pet/character/vrm"
)

// check refuses a model whose references would make posing index out of
// range or compute with NaN: the reader (pet/character/vrm) checks what it
// reads, but a Model can also be built in code, so the rig does not trust
// it. It returns the nodes in an order that puts every parent before its
// children.
func check(m *vrm.Model) ([]int, error) {
	if m == nil {
		return nil, errors.New("rig: no model")
	}
	n := len(m.Nodes)
	for i, nd := range m.Nodes {
		if nd.Parent < -1 || nd.Parent >= n || nd.Parent == i {
			return nil, fmt.Errorf("rig: node %d: parent %d is not a node", i, nd.Parent)
		}
		if nd.Mesh < -1 || nd.Mesh >= len(m.Meshes) {
			return nil, fmt.Errorf("rig: node %d: mesh %d is not a mesh", i, nd.Mesh)
		}
		if nd.Skin < -1 || nd.Skin >= len(m.Skins) {
			return nil, fmt.Errorf("rig: node %d: skin %d is not a skin", i, nd.Skin)
		}
		t, r, s := nd.Translation, nd.Rotation, nd.Scale
		if !finite(float64(t[0]), float64(t[1]), float64(t[2]), float64(r[0]), float64(r[1]),
			float64(r[2]), float64(r[3]), float64(s[0]), float64(s[1]), float64(s[2])) {
			return nil, fmt.Errorf("rig: node %d: its transform is not finite (NaN or infinity)", i)
		}
	}
	order, err := parentsFirst(m)
	if err != nil {
		return nil, err
	}
	for i, sk := range m.Skins {
		if len(sk.InverseBindMatrices) != 0 && len(sk.InverseBindMatrices) != len(sk.Joints) {
			return nil, fmt.Errorf("rig: skin %d: %d inverse bind matrices for %d joints",
				i, len(sk.InverseBindMatrices), len(sk.Joints))
		}
		for _, j := range sk.Joints {
			if j < 0 || j >= n {
				return nil, fmt.Errorf("rig: skin %d: joint %d is not a node", i, j)
			}
		}
		for k, ibm := range sk.InverseBindMatrices {
			if !finiteM(m64(ibm)) {
				return nil, fmt.Errorf("rig: skin %d: inverse bind matrix %d is not finite", i, k)
			}
		}
	}
	for name, b := range m.Humanoid {
		if b < 0 || b >= n {
			return nil, fmt.Errorf("rig: humanoid bone %q: node %d is not a node", name, b)
		}
	}
	for i, nd := range m.Nodes {
		if nd.Mesh < 0 {
			continue
		}
		for p, pr := range m.Meshes[nd.Mesh].Primitives {
			if err := checkPrim(m, nd, pr); err != nil {
				return nil, fmt.Errorf("rig: node %d, mesh %d, primitive %d: %w", i, nd.Mesh, p, err)
			}
		}
	}
	return order, nil
}

func checkPrim(m *vrm.Model, nd vrm.Node, pr vrm.Primitive) error {
	nv := len(pr.Positions)
	short := func(what string, l int) error {
		return fmt.Errorf("%s has %d entries for %d positions", what, l, nv)
	}
	if pr.Normals != nil && len(pr.Normals) < nv {
		return short("normals", len(pr.Normals))
	}
	if pr.UVs != nil && len(pr.UVs) < nv {
		return short("texture coordinates", len(pr.UVs))
	}
	if pr.Colors != nil && len(pr.Colors) < nv {
		return short("colours", len(pr.Colors))
	}
	if pr.Material < -1 || pr.Material >= len(m.Materials) {
		return fmt.Errorf("material %d is not a material", pr.Material)
	}
	for _, ix := range pr.Indices {
		if int(ix) >= nv {
			return fmt.Errorf("index %d is past the %d positions", ix, nv)
		}
	}
	for t, tg := range pr.Targets {
		if len(tg.Positions) != 0 && len(tg.Positions) < nv {
			return fmt.Errorf("morph target %d: %d positions for %d", t, len(tg.Positions), nv)
		}
		if len(tg.Normals) != 0 && len(tg.Normals) < nv {
			return fmt.Errorf("morph target %d: %d normals for %d", t, len(tg.Normals), nv)
		}
	}
	if nd.Skin < 0 || (pr.Joints == nil && pr.Weights == nil) {
		return nil
	}
	if len(pr.Joints) < nv {
		return short("joints", len(pr.Joints))
	}
	if len(pr.Weights) < nv {
		return short("weights", len(pr.Weights))
	}
	nj := len(m.Skins[nd.Skin].Joints)
	for v := 0; v < nv; v++ {
		for k := 0; k < 4; k++ {
			w := pr.Weights[v][k]
			if !finite(float64(w)) {
				return fmt.Errorf("vertex %d: weight %d is not finite", v, k)
			}
			if w != 0 && int(pr.Joints[v][k]) >= nj {
				return fmt.Errorf("vertex %d: joint %d is past the skin's %d joints", v, pr.Joints[v][k], nj)
			}
		}
	}
	return nil
}

// parentsFirst orders the nodes so that a parent comes before its
// children, and refuses a loop in the parent links.
func parentsFirst(m *vrm.Model) ([]int, error) {
	n := len(m.Nodes)
	const (
		unseen = iota
		visiting
		done
	)
	state := make([]uint8, n)
	order := make([]int, 0, n)
	var chain []int
	for i := range m.Nodes {
		chain = chain[:0]
		for j := i; j >= 0 && state[j] != done; j = m.Nodes[j].Parent {
			if state[j] == visiting {
				return nil, fmt.Errorf("rig: node %d: the node tree loops", j)
			}
			state[j] = visiting
			chain = append(chain, j)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			state[chain[k]] = done
			order = append(order, chain[k])
		}
	}
	return order, nil
}
