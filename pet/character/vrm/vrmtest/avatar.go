// Package vrmtest makes VRM test files: Avatar writes a VRM 1.0 model
// (or, with Options.VRM0, the same as VRM 0.x) of simple shapes: a
// humanoid skeleton in a T-pose, skinned meshes, PNG textures, MToon
// materials, the preset expressions and two custom ones as morph targets
// of the face (brows, eyelids, mouth), lookAt by the eye bones; Wave
// writes a .vrma clip on that skeleton. Only tests and benchmarks import
// it; nothing shipped does.
package vrmtest

import "math"

// Options shape the avatar.
type Options struct {
	// Triangles is about how many triangles the avatar has (default
	// 5000); Subdivisions, when set, sets the shapes' rings instead.
	Triangles    int
	Subdivisions int
	// TextureSize is the skin and dress textures' side in pixels
	// (default 256; 4096 for a model of a real avatar's weight).
	TextureSize int
	// Grain adds faint noise to the textures, so that they weigh what a
	// real avatar's do (4096² ones and 100k triangles make a file of some 40 MB) instead of
	// compressing to almost nothing.
	Grain bool
	// VRM0 writes the avatar as VRM 0.x: facing −Z, with the VRM
	// extension's blend shape groups and MToon material properties.
	VRM0 bool
}

// Material indices.
const (
	matSkin = iota
	matDress
	matHair
	matMouth
	matEyeWhite
	matPupil
)

// Mesh and node layout: the bones come first (node i is bones[i]), then
// the root and the three mesh nodes.
const (
	meshBody = iota
	meshFace
	meshEyes
)

const (
	nodeRoot = boneCount + iota
	nodeBody
	nodeFace
	nodeEyes
)

// Avatar returns the bytes of a .vrm file (VRM 1.0). The same options
// give the same bytes.
func Avatar(o Options) []byte {
	if o.TextureSize <= 0 {
		o.TextureSize = 256
	}
	s := o.Subdivisions
	if s <= 0 {
		s = subdivisionsFor(o.Triangles)
	}
	w := &writer{}
	w.d.Asset = asset{Version: "2.0", Generator: "yui vrmtest"}
	w.turn = o.VRM0
	writeNodes(w)
	body := bodyPrims(s)
	face, faceFeats := facePrims(s)
	eyes := eyePrims(s)
	writeMesh(w, "Body", body, nil, nil)
	writeMesh(w, "Face", face, faceFeats, targetNames)
	writeMesh(w, "Eyes", eyes, nil, nil)
	writeSkin(w)
	writeMaterials(w, o.TextureSize, !o.VRM0, o.Grain)
	if o.VRM0 {
		writeVRM0(w)
	} else {
		writeVRM(w)
	}
	return w.glb()
}

// ellipsoidTris is how many triangles ellipsoid adds for lat rings.
func ellipsoidTris(lat int) int { return 4*lat*lat - 4*lat }

// Triangles is how many triangles Avatar makes with subdivisions s.
func trianglesFor(s int) int {
	fs := faceSubdivisions(s)
	return 18*ellipsoidTris(s) + 9*ellipsoidTris(fs)
}

func faceSubdivisions(s int) int { return max(3, s/2) }

func subdivisionsFor(tris int) int {
	if tris <= 0 {
		tris = 5000
	}
	best := 3
	for s := 3; s <= 512; s++ {
		if math.Abs(float64(trianglesFor(s)-tris)) < math.Abs(float64(trianglesFor(best)-tris)) {
			best = s
		}
		if trianglesFor(s) > tris {
			break
		}
	}
	return best
}

func writeNodes(w *writer) {
	for i, b := range bones {
		n := node{Name: b.name}
		t := b.pos
		if b.parent >= 0 {
			p := bones[b.parent].pos
			t = vec3{t[0] - p[0], t[1] - p[1], t[2] - p[2]}
		}
		t = w.turned(t)
		n.Translation = &t
		for j, c := range bones {
			if c.parent == i {
				n.Children = append(n.Children, j)
			}
		}
		w.d.Nodes = append(w.d.Nodes, n)
	}
	skin := 0
	w.d.Nodes = append(w.d.Nodes,
		node{Name: "Root", Children: []int{bHips, nodeBody, nodeFace, nodeEyes}},
		node{Name: "Body", Mesh: ptr(meshBody), Skin: &skin},
		node{Name: "Face", Mesh: ptr(meshFace), Skin: &skin},
		node{Name: "Eyes", Mesh: ptr(meshEyes), Skin: &skin},
	)
	w.d.Scenes = []scene{{Nodes: []int{nodeRoot}}}
}

func ptr(i int) *int { return &i }

// limb adds an ellipsoid from bone a's position to bone b's, blending
// into b near its end.
func limb(p *prim, a, b int, r float32, s int, uv [4]float32) {
	pa, pb := bones[a].pos, bones[b].pos
	c := vec3{(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2}
	half := vec3{r, r, r}
	for k := 0; k < 3; k++ {
		if d := float32(math.Abs(float64(pb[k]-pa[k]))) / 2; d > r {
			half[k] = d + r/3
		}
	}
	p.ellipsoid(c, half, s, 2*s, blendAlong(uint8(a), uint8(b), pa, pb), uv)
}

// bodyPrims are the body's primitives by material: skin, dress, hair.
func bodyPrims(s int) map[int]*prim {
	skin, dress, hair := &prim{}, &prim{}, &prim{}
	full := [4]float32{0, 0, 1, 1}
	skin.ellipsoid(vec3{0, headY, 0}, vec3{headRX, headRY, headRZ}, s, 2*s, rigid(bHead), full)
	skin.ellipsoid(vec3{0, 1.39, 0}, vec3{0.04, 0.05, 0.04}, s, 2*s, rigid(bNeck), full)
	hair.ellipsoid(vec3{0, 1.565, -0.03}, vec3{0.118, 0.1, 0.12}, s, 2*s, rigid(bHead), full)
	dress.ellipsoid(vec3{0, 1.20, 0}, vec3{0.14, 0.16, 0.09}, s, 2*s, rigid(bChest), full)
	dress.ellipsoid(vec3{0, 1.00, 0}, vec3{0.12, 0.12, 0.085}, s, 2*s, rigid(bSpine), full)
	dress.ellipsoid(vec3{0, 0.84, 0}, vec3{0.17, 0.14, 0.12}, s, 2*s, rigid(bHips), full)
	for _, side := range [][6]int{
		{bLeftUpperArm, bLeftLowerArm, bLeftHand, bLeftUpperLeg, bLeftLowerLeg, bLeftFoot},
		{bRightUpperArm, bRightLowerArm, bRightHand, bRightUpperLeg, bRightLowerLeg, bRightFoot},
	} {
		limb(skin, side[0], side[1], 0.04, s, full)
		limb(skin, side[1], side[2], 0.035, s, full)
		hp := bones[side[2]].pos
		sx := float32(1)
		if hp[0] < 0 {
			sx = -1
		}
		skin.ellipsoid(vec3{hp[0] + sx*0.06, hp[1], hp[2]}, vec3{0.07, 0.025, 0.045}, s, 2*s, rigid(uint8(side[2])), full)
		limb(skin, side[3], side[4], 0.065, s, full)
		limb(skin, side[4], side[5], 0.05, s, full)
		fp := bones[side[5]].pos
		dress.ellipsoid(vec3{fp[0], 0.04, 0.05}, vec3{0.05, 0.04, 0.11}, s, 2*s, rigid(uint8(side[5])), full)
	}
	return map[int]*prim{matSkin: skin, matDress: dress, matHair: hair}
}

// facePrims are the face's features by material, and the features each
// vertex belongs to (for the morph targets).
func facePrims(s int) (map[int]*prim, map[int][]feature) {
	fs := faceSubdivisions(s)
	prims := map[int]*prim{}
	feats := map[int][]feature{}
	for _, f := range faceFeatures() {
		mat := map[featureKind]int{fWhite: matEyeWhite, fLid: matSkin, fBrow: matHair, fMouth: matMouth}[f.kind]
		p := prims[mat]
		if p == nil {
			p = &prim{}
			prims[mat] = p
		}
		before := len(p.pos)
		p.ellipsoid(f.c, f.r, fs, 2*fs, rigid(bHead), [4]float32{0.45, 0.45, 0.55, 0.55})
		for range len(p.pos) - before {
			feats[mat] = append(feats[mat], f)
		}
	}
	return prims, feats
}

// eyePrims are the pupils, on the eye bones: lookAt turns them.
func eyePrims(s int) map[int]*prim {
	p := &prim{}
	fs := faceSubdivisions(s)
	for _, b := range []int{bLeftEye, bRightEye} {
		x := bones[b].pos[0]
		p.ellipsoid(vec3{x, eyeY, surfaceZ(x, eyeY) + 0.005}, vec3{0.013, 0.018, 0.004}, fs, 2*fs, rigid(uint8(b)), [4]float32{0, 0, 1, 1})
	}
	return map[int]*prim{matPupil: p}
}

// writeMesh writes a mesh's primitives in material order, with the
// morph targets when targets are named (every primitive of a mesh has
// all of them, as glTF requires).
func writeMesh(w *writer, name string, prims map[int]*prim, feats map[int][]feature, targets []string) {
	m := mesh{Name: name}
	for mat := matSkin; mat <= matPupil; mat++ {
		p := prims[mat]
		if p == nil {
			continue
		}
		gp := primitive{Material: mat, Attributes: map[string]int{
			"POSITION":   w.floats(flat3(w.turnedAll(p.pos)), 3, "VEC3", true, arrayBuf),
			"NORMAL":     w.floats(flat3(w.turnedAll(p.nrm)), 3, "VEC3", false, arrayBuf),
			"TEXCOORD_0": w.floats(flat2(p.uv), 2, "VEC2", false, arrayBuf),
			"JOINTS_0":   w.joints(p.joints),
			"WEIGHTS_0":  w.weights(p.weights),
		}}
		gp.Indices = w.indices(p.idx)
		for _, t := range targets {
			d := make([]vec3, len(p.pos))
			for i, v := range p.pos {
				d[i] = w.turned(displacement(t, feats[mat][i], v))
			}
			gp.Targets = append(gp.Targets, map[string]int{"POSITION": w.floats(flat3(d), 3, "VEC3", true, arrayBuf)})
		}
		m.Primitives = append(m.Primitives, gp)
	}
	if len(targets) > 0 {
		m.Weights = make([]float32, len(targets))
		m.Extras = map[string]any{"targetNames": targets}
	}
	w.d.Meshes = append(w.d.Meshes, m)
}

// writeSkin writes the skin: every bone a joint, the inverse bind
// matrices undoing the T-pose's translations.
func writeSkin(w *writer) {
	ibm := make([]float32, 0, 16*boneCount)
	joints := make([]int, boneCount)
	for i, b := range bones {
		joints[i] = i
		p := w.turned(b.pos)
		ibm = append(ibm, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -p[0], -p[1], -p[2], 1)
	}
	w.d.Skins = []skin{{InverseBindMatrices: w.floats(ibm, 16, "MAT4", false, 0), Joints: joints, Skeleton: bHips}}
}
