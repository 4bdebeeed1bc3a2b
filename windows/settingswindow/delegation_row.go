package settingswindow

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
)

// delegationRow is one delegation of the Session list: its title, state,
// status and times; a tap on a finished item with a summary opens the
// summary under the row, another tap closes it.
type delegationRow struct {
	widget.BaseWidget
	item     transport.Delegation
	expanded bool
	toggled  func(id string, open bool)

	icon    *widget.Icon
	title   *widget.Label
	meta    *widget.Label
	summary *widget.Label
}

func newHistoryRow(d transport.Delegation, expanded bool, toggled func(id string, open bool)) *delegationRow {
	r := &delegationRow{item: d, toggled: toggled}
	r.icon = widget.NewIcon(nil)
	r.title = widget.NewLabelWithStyle(d.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	r.title.Wrapping = fyne.TextWrapWord
	r.meta = widget.NewLabel(delegationMeta(d))
	r.meta.Wrapping = fyne.TextWrapWord
	r.meta.Importance = delegationImportance(d)
	r.summary = widget.NewLabel(d.Summary)
	r.summary.Wrapping = fyne.TextWrapWord
	r.ExtendBaseWidget(r)
	r.setExpanded(expanded && r.expandable())
	return r
}

// expandable reports whether the row has a summary to open.
func (r *delegationRow) expandable() bool {
	return r.item.State != "running" && strings.TrimSpace(r.item.Summary) != ""
}

func (r *delegationRow) setExpanded(open bool) {
	r.expanded = open
	switch {
	case !r.expandable():
		r.icon.SetResource(nil)
	case open:
		r.icon.SetResource(theme.MenuDropDownIcon())
	default:
		r.icon.SetResource(theme.MenuExpandIcon())
	}
	if open {
		r.summary.Show()
	} else {
		r.summary.Hide()
	}
	r.Refresh()
}

// Tapped opens or closes the summary.
func (r *delegationRow) Tapped(*fyne.PointEvent) {
	if !r.expandable() {
		return
	}
	r.setExpanded(!r.expanded)
	if r.toggled != nil {
		r.toggled(r.item.ID, r.expanded)
	}
}

func (r *delegationRow) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	title := container.NewBorder(nil, nil, r.icon, nil, r.title)
	meta := container.NewBorder(nil, nil, spacerLike(r.icon), nil, r.meta)
	summary := container.NewBorder(nil, nil, spacerLike(r.icon), nil, container.NewPadded(r.summary))
	// Closer than a VBox: the labels carry their own padding.
	body := container.New(layout.NewCustomPaddedVBoxLayout(-theme.Padding()), title, meta, summary)
	return widget.NewSimpleRenderer(container.NewStack(bg, container.NewPadded(body)))
}

// spacerLike is an empty object as wide as o, to indent under it.
func spacerLike(o fyne.CanvasObject) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(o.MinSize().Width, 0))
}

// delegationMeta is the row's second line: "Running · started 2 Jan 14:02"
// or "Done · ok · 2 Jan 14:02 → 14:09 (7 min)".
func delegationMeta(d transport.Delegation) string {
	if d.State == "running" {
		return lang.L("Running · started {{.Time}}", map[string]any{"Time": clock(d.StartedAt)})
	}
	status := d.Status
	switch status {
	case "":
		status = lang.L("unknown")
	case "error":
		status = lang.L("failed")
	}
	parts := []string{lang.L("Done"), status}
	switch {
	case d.EndedAt != 0 && d.StartedAt != 0:
		parts = append(parts, fmt.Sprintf("%s → %s (%s)", clock(d.StartedAt), clock(d.EndedAt),
			readableSpan(time.Duration(d.EndedAt-d.StartedAt)*time.Millisecond)))
	case d.EndedAt != 0:
		parts = append(parts, lang.L("ended {{.Time}}", map[string]any{"Time": clock(d.EndedAt)}))
	case d.StartedAt != 0:
		parts = append(parts, lang.L("started {{.Time}}", map[string]any{"Time": clock(d.StartedAt)}))
	}
	return strings.Join(parts, " · ")
}

func delegationImportance(d transport.Delegation) widget.Importance {
	switch {
	case d.State == "running":
		return widget.WarningImportance
	case d.Status == "ok":
		return widget.SuccessImportance
	case d.Status == "error":
		return widget.DangerImportance
	}
	return widget.LowImportance
}

// clock shows an epoch-milliseconds time in local time.
func clock(ms int64) string {
	if ms == 0 {
		return "—"
	}
	return time.UnixMilli(ms).Local().Format(lang.X("format.daytime", "2 Jan 15:04"))
}

// readableSpan is a duration rounded for reading: "45 s", "7 min", "2 h 5 min".
func readableSpan(d time.Duration) string {
	switch {
	case d < 0:
		return "—"
	case d < time.Minute:
		return lang.L("{{.S}} s", map[string]any{"S": int(d.Seconds())})
	case d < time.Hour:
		return lang.L("{{.M}} min", map[string]any{"M": int(d.Minutes())})
	}
	return lang.L("{{.H}} h {{.M}} min", map[string]any{"H": int(d.Hours()), "M": int(d.Minutes()) % 60})
}
