package pet

import (
	"reflect"
	"testing"
)

// TestViewHeadCoversTheView keeps changedLocked honest: every View field
// is either in viewHead (compared on each change) or a delegation list
// (which marks its own changes). A field added to View and not here would
// change without the window hearing of it.
func TestViewHeadCoversTheView(t *testing.T) {
	head := reflect.TypeFor[viewHead]()
	lists := map[string]bool{"Delegations": true, "History": true}
	vt := reflect.TypeFor[View]()
	for i := range vt.NumField() {
		name := vt.Field(i).Name
		if lists[name] {
			continue
		}
		if _, ok := head.FieldByName(name); !ok {
			t.Errorf("View.%s is not in viewHead: its changes would not be published", name)
		}
	}
}
