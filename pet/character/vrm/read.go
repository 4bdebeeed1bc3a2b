package vrm

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/qmuntal/gltf"
)

const (
	extVRM0   = "VRM"
	extVRM1   = "VRMC_vrm"
	extMToon  = "VRMC_materials_mtoon"
	extUnlit  = "KHR_materials_unlit"
	extTexXf  = "KHR_texture_transform"
	extVRMA   = "VRMC_vrm_animation"
	maxSkins  = 4096
	maxJoints = 65536
)

func read(r io.Reader) (*Model, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	c, err := parseGLB(data)
	if err != nil {
		return nil, err
	}
	_, has0 := c.doc.Extensions[extVRM0]
	_, has1 := c.doc.Extensions[extVRM1]
	if !has0 && !has1 {
		if _, ok := c.doc.Extensions[extVRMA]; ok {
			return nil, errors.New("vrm: not a VRM model: it is a VRM Animation clip (.vrma)")
		}
		return nil, errors.New("vrm: not a VRM model: the glTF has no VRM or VRMC_vrm extension")
	}
	m := &Model{}
	if err := c.readNodes(m); err != nil {
		return nil, err
	}
	if err := c.readTextures(m); err != nil {
		return nil, err
	}
	if err := c.readMaterials(m); err != nil {
		return nil, err
	}
	if err := c.readMeshes(m); err != nil {
		return nil, err
	}
	if err := c.readSkins(m); err != nil {
		return nil, err
	}
	if has1 {
		m.SpecVersion = 1
		err = c.readVRM1(m)
	} else {
		m.SpecVersion = 0
		err = c.readVRM0(m)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// readNodes reads the node tree, refusing an index out of range, a node
// with two parents and a loop, and decomposes matrices to TRS.
func (c *container) readNodes(m *Model) error {
	doc := c.doc
	if len(doc.Nodes) > MaxNodes {
		return fmt.Errorf("vrm: %d nodes, at most %d", len(doc.Nodes), MaxNodes)
	}
	m.Nodes = make([]Node, len(doc.Nodes))
	for i := range m.Nodes {
		m.Nodes[i].Parent = -1
	}
	for i, n := range doc.Nodes {
		if err := c.readNode(m, i, n); err != nil {
			return err
		}
	}
	if err := checkNodesReached(m); err != nil {
		return err
	}
	return c.readRoots(m)
}

// readNode reads node i: its mesh and skin, its rest transform, and its
// children, whose parent it becomes.
func (c *container) readNode(m *Model, i int, n *gltf.Node) error {
	doc := c.doc
	if n == nil {
		return fmt.Errorf("vrm: node %d is null", i)
	}
	out := &m.Nodes[i]
	out.Name = n.Name
	out.Mesh, out.Skin = -1, -1
	if n.Mesh != nil {
		if *n.Mesh < 0 || *n.Mesh >= len(doc.Meshes) {
			return fmt.Errorf("vrm: node %d: mesh %d out of range", i, *n.Mesh)
		}
		out.Mesh = *n.Mesh
	}
	if n.Skin != nil {
		if *n.Skin < 0 || *n.Skin >= len(doc.Skins) {
			return fmt.Errorf("vrm: node %d: skin %d out of range", i, *n.Skin)
		}
		out.Skin = *n.Skin
	}
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != ([16]float64{}) {
		out.Translation, out.Rotation, out.Scale = decompose(n.Matrix)
	} else {
		out.Translation = vec3f(n.Translation)
		out.Rotation = normQuat(quatf(n.RotationOrDefault()))
		out.Scale = vec3f(n.ScaleOrDefault())
	}
	if !finiteNode(out) {
		return fmt.Errorf("vrm: node %d: its transform is not finite", i)
	}
	for _, ch := range n.Children {
		if ch < 0 || ch >= len(doc.Nodes) {
			return fmt.Errorf("vrm: node %d: child %d out of range", i, ch)
		}
		if ch == i {
			return fmt.Errorf("vrm: node tree loops: node %d is its own child", i)
		}
		if m.Nodes[ch].Parent != -1 {
			return fmt.Errorf("vrm: node %d has two parents (%d and %d)", ch, m.Nodes[ch].Parent, i)
		}
		m.Nodes[ch].Parent = i
	}
	out.Children = append([]int(nil), n.Children...)
	return nil
}

// checkNodesReached refuses a node tree with a loop: with one parent each,
// a node not reached from a parentless node lies on a loop.
func checkNodesReached(m *Model) error {
	reached := make([]bool, len(m.Nodes))
	var stack []int
	for i := range m.Nodes {
		if m.Nodes[i].Parent == -1 {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached[i] = true
		stack = append(stack, m.Nodes[i].Children...)
	}
	for i, ok := range reached {
		if !ok {
			return fmt.Errorf("vrm: node tree loops through node %d", i)
		}
	}
	return nil
}

// readRoots sets the scene's roots; without a scene, every parentless node.
func (c *container) readRoots(m *Model) error {
	doc := c.doc
	scene := 0
	if doc.Scene != nil {
		scene = *doc.Scene
	}
	if scene >= 0 && scene < len(doc.Scenes) && doc.Scenes[scene] != nil {
		for _, r := range doc.Scenes[scene].Nodes {
			if r < 0 || r >= len(m.Nodes) {
				return fmt.Errorf("vrm: scene %d: node %d out of range", scene, r)
			}
			if m.Nodes[r].Parent != -1 {
				return fmt.Errorf("vrm: scene %d: root node %d has a parent", scene, r)
			}
			m.Roots = append(m.Roots, r)
		}
		return nil
	}
	for i := range m.Nodes {
		if m.Nodes[i].Parent == -1 {
			m.Roots = append(m.Roots, i)
		}
	}
	return nil
}

func (c *container) readSkins(m *Model) error {
	if len(c.doc.Skins) > maxSkins {
		return fmt.Errorf("vrm: %d skins, at most %d", len(c.doc.Skins), maxSkins)
	}
	m.Skins = make([]Skin, len(c.doc.Skins))
	for i, s := range c.doc.Skins {
		if s == nil {
			return fmt.Errorf("vrm: skin %d is null", i)
		}
		if len(s.Joints) > maxJoints {
			return fmt.Errorf("vrm: skin %d: %d joints, at most %d", i, len(s.Joints), maxJoints)
		}
		for _, j := range s.Joints {
			if j < 0 || j >= len(m.Nodes) {
				return fmt.Errorf("vrm: skin %d: joint node %d out of range", i, j)
			}
		}
		m.Skins[i].Joints = append([]int(nil), s.Joints...)
		ibm := make([]Mat4, len(s.Joints))
		if s.InverseBindMatrices != nil {
			f, err := c.floats(*s.InverseBindMatrices, 16, false)
			if err != nil {
				return fmt.Errorf("vrm: skin %d: %w", i, err)
			}
			if len(f) < 16*len(s.Joints) {
				return fmt.Errorf("vrm: skin %d: %d inverse bind matrices for %d joints", i, len(f)/16, len(s.Joints))
			}
			for j := range ibm {
				copy(ibm[j][:], f[16*j:])
			}
		} else {
			for j := range ibm {
				ibm[j] = Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
			}
		}
		m.Skins[i].InverseBindMatrices = ibm
	}
	return nil
}

func vec3f(v [3]float64) Vec3 { return Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }
func quatf(v [4]float64) Quat {
	return Quat{float32(v[0]), float32(v[1]), float32(v[2]), float32(v[3])}
}

func normQuat(q Quat) Quat {
	l := math.Sqrt(float64(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]))
	if l < 1e-12 || math.IsNaN(l) || math.IsInf(l, 0) {
		return Quat{0, 0, 0, 1}
	}
	return Quat{float32(float64(q[0]) / l), float32(float64(q[1]) / l), float32(float64(q[2]) / l), float32(float64(q[3]) / l)}
}

// decompose splits a column-major affine matrix into translation,
// rotation and scale (a negative determinant flips the X scale).
func decompose(m [16]float64) (Vec3, Quat, Vec3) {
	t := Vec3{float32(m[12]), float32(m[13]), float32(m[14])}
	sx := math.Sqrt(m[0]*m[0] + m[1]*m[1] + m[2]*m[2])
	sy := math.Sqrt(m[4]*m[4] + m[5]*m[5] + m[6]*m[6])
	sz := math.Sqrt(m[8]*m[8] + m[9]*m[9] + m[10]*m[10])
	det := m[0]*(m[5]*m[10]-m[6]*m[9]) - m[4]*(m[1]*m[10]-m[2]*m[9]) + m[8]*(m[1]*m[6]-m[2]*m[5])
	if det < 0 {
		sx = -sx
	}
	if sx == 0 || sy == 0 || sz == 0 {
		return t, Quat{0, 0, 0, 1}, Vec3{float32(sx), float32(sy), float32(sz)}
	}
	// Rotation matrix r[row][col].
	r00, r10, r20 := m[0]/sx, m[1]/sx, m[2]/sx
	r01, r11, r21 := m[4]/sy, m[5]/sy, m[6]/sy
	r02, r12, r22 := m[8]/sz, m[9]/sz, m[10]/sz
	var x, y, z, w float64
	tr := r00 + r11 + r22
	switch {
	case tr > 0:
		s := 0.5 / math.Sqrt(tr+1)
		w, x, y, z = 0.25/s, (r21-r12)*s, (r02-r20)*s, (r10-r01)*s
	case r00 > r11 && r00 > r22:
		s := 2 * math.Sqrt(1+r00-r11-r22)
		w, x, y, z = (r21-r12)/s, 0.25*s, (r01+r10)/s, (r02+r20)/s
	case r11 > r22:
		s := 2 * math.Sqrt(1+r11-r00-r22)
		w, x, y, z = (r02-r20)/s, (r01+r10)/s, 0.25*s, (r12+r21)/s
	default:
		s := 2 * math.Sqrt(1+r22-r00-r11)
		w, x, y, z = (r10-r01)/s, (r02+r20)/s, (r12+r21)/s, 0.25*s
	}
	return t, normQuat(Quat{float32(x), float32(y), float32(z), float32(w)}), Vec3{float32(sx), float32(sy), float32(sz)}
}

func finiteNode(n *Node) bool {
	for _, v := range []float32{n.Translation[0], n.Translation[1], n.Translation[2],
		n.Rotation[0], n.Rotation[1], n.Rotation[2], n.Rotation[3], n.Scale[0], n.Scale[1], n.Scale[2]} {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}
