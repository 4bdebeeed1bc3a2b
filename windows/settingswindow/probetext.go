package settingswindow

import (
	"errors"

	"fyne.io/fyne/v2/lang"

	"yui/windows"
	"yui/windows/i18n"
)

// probeText is what the test-connection button found, in the user's
// language; the app's English Text is for the log. A probe with no code
// (a newer app's) shows through i18n.Error, its English said to be so.
func probeText(res windows.Probe) string {
	a := res.Args
	switch res.Code {
	case windows.ProbeReady:
		return lang.L("connected: ready")
	case windows.ProbeModels:
		return lang.N("connected: {{.Count}} models", len(res.Models), map[string]any{"Count": len(res.Models)})
	case windows.ProbeKeyRejected:
		return lang.L("key rejected")
	case windows.ProbeUnreachable:
		return lang.L("unreachable: {{.Detail}}", a)
	case windows.ProbeNotPushHTTP:
		return lang.L("not a push backend: the server answered HTTP {{.Status}}", a)
	case windows.ProbeNotPushClosed:
		return lang.L("not a push backend: the socket closed (code {{.Code}}) before ready", a)
	case windows.ProbeNoReady:
		return lang.L("no ready: the backend accepted the socket but did not answer hello")
	case windows.ProbeClosed:
		return lang.L("closed")
	case windows.ProbeInvalid:
		return lang.L("invalid: {{.Detail}}", a)
	case windows.ProbeTimeout:
		return lang.L("unreachable: no answer in {{.Seconds}} s", map[string]any{"Seconds": int(probeTimeout.Seconds())})
	case windows.ProbeHTTP:
		return lang.L("the server answered HTTP {{.Status}}: {{.Detail}}", a)
	}
	if res.OK {
		return lang.L("connected")
	}
	return i18n.Error(errors.New(res.Text))
}
