package vrmpack

import "image"

// testSize is the logical size tests draw packs at: half the default,
// so that an import is quick.
var testSize = image.Pt(96, 128)
