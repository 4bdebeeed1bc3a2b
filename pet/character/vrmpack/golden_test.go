package vrmpack

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"yui/pet/character"
)

var update = flag.Bool("update", false, "rewrite the golden contact sheets in testdata/golden")

// goldenCell is the height of a picture in a golden contact sheet: small,
// so a sheet is a few kilobytes, and enough to see a pose or a face.
const goldenCell = 40

// checkGolden compares the pack's contact sheet with testdata/golden/
// name.png, within a tolerance: a change a person would see fails, a
// rounding does not. -update rewrites it.
func checkGolden(t *testing.T, name string, p *character.Pack) {
	t.Helper()
	sheet := ContactSheet(p, goldenCell)
	file := filepath.Join("testdata", "golden", name+".png")
	if *update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, sheet); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	want, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if want.Bounds() != sheet.Bounds() {
		t.Fatalf("the contact sheet is %v, the golden one %v: the pack's frames changed", sheet.Bounds().Size(), want.Bounds().Size())
	}
	r := sheet.Bounds()
	d, n := diff(want, sheet, r), changed(want, sheet, r)
	if d > 1.5 || n*100 > r.Dx()*r.Dy() {
		got := filepath.Join(t.TempDir(), name+".png")
		var buf bytes.Buffer
		_ = png.Encode(&buf, sheet)
		_ = os.WriteFile(got, buf.Bytes(), 0o644)
		t.Errorf("the contact sheet differs from %s: mean %.2f, %d pixels changed (%s)", file, d, n, got)
	}
}
