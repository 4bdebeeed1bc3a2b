package settingswindow

import (
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
	"yui/windows/widgets"
)

// budgetText is the preset editor's read-only line under context_window:
// the prompt tokens of the running connection's last request (the
// budget in use) against the context window.
func budgetText(u *transport.Usage, window int) string {
	switch {
	case u == nil || u.InputTokens <= 0:
		return lang.L("Budget in use: — (no request reported its usage yet)")
	case window <= 0:
		return lang.L("Budget in use: {{.Used}} tokens (context window unknown)", map[string]any{"Used": widgets.GroupThousands(u.InputTokens)})
	}
	return lang.L("Budget in use: {{.Used}} / {{.Window}} tokens", map[string]any{"Used": widgets.GroupThousands(u.InputTokens), "Window": widgets.GroupThousands(int64(window))})
}

func newBudgetLabel() *widget.Label { return widget.NewLabel(budgetText(nil, 0)) }

// showBudget shows the usage of the selected preset's running connection
// (nil when it runs none) against the context window as edited.
func (e *presetEditor) showBudget(u *transport.Usage) {
	e.f.budget.SetText(budgetText(u, e.candidate().ContextWindow))
}
