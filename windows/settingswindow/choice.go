package settingswindow

import (
	"slices"

	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
)

// option is one value of a choice and the label the user sees for it:
// an English text the choice translates with lang.L, or, when label is the
// value itself (plainOptions, a device's name), the value as it is.
type option struct{ value, label string }

// text is what the user sees for o.
func (o option) text() string {
	if o.label == o.value {
		return o.label
	}
	return lang.L(o.label)
}

// choice is a select whose options show labels but whose value is the
// settings value behind them ("Ask" shows the value "unset").
//
// Select is the widget to lay out. It is a named field, not embedded: a
// widget embedded by pointer would be drawn through the wrapper while it
// refreshes itself, and the two renderers would part.
type choice struct {
	Select *widget.Select
	opts   []option
	// changed gets the value the user picked.
	changed func(value string)
}

func newChoice(opts []option, changed func(value string)) *choice {
	c := &choice{changed: changed}
	c.Select = widget.NewSelect(nil, func(label string) {
		if c.changed != nil {
			c.changed(c.valueOf(label))
		}
	})
	c.SetOptions(opts)
	return c
}

// plainOptions are options shown as their values.
func plainOptions(values ...string) []option {
	out := make([]option, len(values))
	for i, v := range values {
		out[i] = option{v, v}
	}
	return out
}

// SetOptions replaces the options, keeping the value picked.
func (c *choice) SetOptions(opts []option) {
	cur := c.Value()
	c.opts = slices.Clone(opts)
	labels := make([]string, len(opts))
	for i, o := range opts {
		labels[i] = o.text()
	}
	c.Select.SetOptions(labels)
	if cur != "" || c.Select.Selected != "" {
		c.setQuiet(cur)
	}
}

// Value is the value picked; "" when none.
func (c *choice) Value() string {
	if c.Select.Selected == "" {
		return ""
	}
	return c.valueOf(c.Select.Selected)
}

// SetValue picks value without calling changed. A value the options do
// not hold (a hand-edited file) is added so that it shows as it is.
func (c *choice) SetValue(value string) { c.setQuiet(value) }

func (c *choice) setQuiet(value string) {
	i := slices.IndexFunc(c.opts, func(o option) bool { return o.value == value })
	if i < 0 {
		c.opts = append(c.opts, option{value, value})
		c.Select.Options = append(c.Select.Options, value)
		i = len(c.opts) - 1
	}
	fn := c.changed
	c.changed = nil
	c.Select.SetSelected(c.opts[i].text())
	c.changed = fn
}

func (c *choice) valueOf(label string) string {
	for _, o := range c.opts {
		if o.text() == label {
			return o.value
		}
	}
	return label
}
