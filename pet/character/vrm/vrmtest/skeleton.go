package vrmtest

// bone is one joint of the test avatar's skeleton: its VRM 1.0 humanoid
// name, parent (an index into bones, -1 for the root) and T-pose world
// position in metres (the avatar faces +Z, Y up; its left is +X).
type bone struct {
	name   string
	parent int
	pos    vec3
}

// Bone indices, in the order of bones below (also the skin's joints).
const (
	bHips = iota
	bSpine
	bChest
	bUpperChest
	bNeck
	bHead
	bLeftEye
	bRightEye
	bLeftShoulder
	bLeftUpperArm
	bLeftLowerArm
	bLeftHand
	bRightShoulder
	bRightUpperArm
	bRightLowerArm
	bRightHand
	bLeftUpperLeg
	bLeftLowerLeg
	bLeftFoot
	bLeftToes
	bRightUpperLeg
	bRightLowerLeg
	bRightFoot
	bRightToes
	boneCount
)

var bones = [boneCount]bone{
	bHips:          {"hips", -1, vec3{0, 0.90, 0}},
	bSpine:         {"spine", bHips, vec3{0, 1.00, 0}},
	bChest:         {"chest", bSpine, vec3{0, 1.12, 0}},
	bUpperChest:    {"upperChest", bChest, vec3{0, 1.24, 0}},
	bNeck:          {"neck", bUpperChest, vec3{0, 1.36, 0}},
	bHead:          {"head", bNeck, vec3{0, 1.42, 0}},
	bLeftEye:       {"leftEye", bHead, vec3{eyeX, eyeY, 0.05}},
	bRightEye:      {"rightEye", bHead, vec3{-eyeX, eyeY, 0.05}},
	bLeftShoulder:  {"leftShoulder", bUpperChest, vec3{0.03, 1.32, 0}},
	bLeftUpperArm:  {"leftUpperArm", bLeftShoulder, vec3{0.15, 1.32, 0}},
	bLeftLowerArm:  {"leftLowerArm", bLeftUpperArm, vec3{0.40, 1.32, 0}},
	bLeftHand:      {"leftHand", bLeftLowerArm, vec3{0.64, 1.32, 0}},
	bRightShoulder: {"rightShoulder", bUpperChest, vec3{-0.03, 1.32, 0}},
	bRightUpperArm: {"rightUpperArm", bRightShoulder, vec3{-0.15, 1.32, 0}},
	bRightLowerArm: {"rightLowerArm", bRightUpperArm, vec3{-0.40, 1.32, 0}},
	bRightHand:     {"rightHand", bRightLowerArm, vec3{-0.64, 1.32, 0}},
	bLeftUpperLeg:  {"leftUpperLeg", bHips, vec3{0.09, 0.84, 0}},
	bLeftLowerLeg:  {"leftLowerLeg", bLeftUpperLeg, vec3{0.09, 0.47, 0}},
	bLeftFoot:      {"leftFoot", bLeftLowerLeg, vec3{0.09, 0.08, 0}},
	bLeftToes:      {"leftToes", bLeftFoot, vec3{0.09, 0.02, 0.12}},
	bRightUpperLeg: {"rightUpperLeg", bHips, vec3{-0.09, 0.84, 0}},
	bRightLowerLeg: {"rightLowerLeg", bRightUpperLeg, vec3{-0.09, 0.47, 0}},
	bRightFoot:     {"rightFoot", bRightLowerLeg, vec3{-0.09, 0.08, 0}},
	bRightToes:     {"rightToes", bRightFoot, vec3{-0.09, 0.02, 0.12}},
}

// The face's layout: the head ellipsoid and the features on its front.
const (
	headY  = 1.50
	headRX = 0.11
	headRY = 0.13
	headRZ = 0.115
	eyeX   = 0.038
	eyeY   = 1.515
	mouthY = 1.435
)
