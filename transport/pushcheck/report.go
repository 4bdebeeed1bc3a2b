package pushcheck

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText writes the report as a table: one row per rule, with the
// spec sentence it checks below it.
func (r Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("yui-sim check %s\n\n", r.URL)
	ew.printf("%-6s %-24s %s\n", "RESULT", "RULE", "DETAIL")
	for _, res := range r.Results {
		ew.printf("%-6s %-24s %s\n", res.Status, res.Rule, res.Detail)
		ew.printf("%-6s %-24s %s: %s\n", "", "", res.Doc, res.Spec)
	}
	pass, fail, skip := r.Counts()
	ew.printf("\nPASS %d, FAIL %d, SKIP %d (rules checked: %d)\n", pass, fail, skip, len(r.Results))
	return ew.err
}

// WriteJSON writes the report as one indented JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	pass, fail, skip := r.Counts()
	out := struct {
		Report
		Pass int `json:"pass"`
		Fail int `json:"fail"`
		Skip int `json:"skip"`
	}{r, pass, fail, skip}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
