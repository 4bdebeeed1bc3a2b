package settingswindow

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/transport/localserver"
	"yui/windows/i18n"
)

// The welcome page: what the settings window shows first when nothing is
// set up (a first start found no model server), and what its "Find local
// servers" button opens. Four ways in, each tried in place: a model server
// on this computer, a cloud service, an agent over push, the demo.

// findTimeout bounds the "Find local servers" scan.
const findTimeout = 5 * time.Second

// cloudService is a cloud provider the welcome page knows: picking one
// fills the base URL, API and a suggested model.
type cloudService struct {
	Name, BaseURL, ChatAPI, Model string
	// KeyHint says where the key comes from.
	KeyHint string
}

func cloudServices() []cloudService {
	cc := settings.ChatAPIChatCompletions
	return []cloudService{
		{"OpenAI", "https://api.openai.com/v1", settings.ChatAPIResponses, "gpt-5-mini", lang.L("platform.openai.com → API keys")},
		{"Azure OpenAI", "https://YOUR-RESOURCE.openai.azure.com/openai/v1", settings.ChatAPIResponses, "gpt-5-mini", lang.L("Azure portal → your resource → Keys; the model is your deployment's name")},
		{"DeepSeek", "https://api.deepseek.com/v1", cc, "deepseek-chat", lang.L("platform.deepseek.com → API keys")},
		{"Mistral", "https://api.mistral.ai/v1", cc, "mistral-small-latest", lang.L("console.mistral.ai → API keys")},
		{"Groq", "https://api.groq.com/openai/v1", cc, "llama-3.3-70b-versatile", lang.L("console.groq.com → API keys")},
		{"xAI", "https://api.x.ai/v1", cc, "grok-3-mini", lang.L("console.x.ai → API keys")},
		{"OpenRouter", "https://openrouter.ai/api/v1", cc, "openai/gpt-5-mini", lang.L("openrouter.ai → Keys")},
	}
}

// Welcomer is what the welcome page asks the app (its connection test
// goes through Connection).
type Welcomer interface {
	// FindServers asks the usual local ports for model servers (at most
	// a second or so); never on the UI thread.
	FindServers(ctx context.Context) []localserver.Server
	// FoundServers is the last scan's answer (the first start's).
	FoundServers() []localserver.Server
	// UseServer points preset id at a local server and saves it.
	UseServer(presetID string, s localserver.Server)
	// TryDemo starts the demo backend in this run, no restart. UI thread.
	TryDemo() error
}

// welcomePage is the page's widgets.
type welcomePage struct {
	w *SettingsWindow

	find      *widget.Button
	findState *widget.Label
	found     *fyne.Container // a row per server found

	cloud                 *widget.Select
	cloudURL, cloudModel  *widget.Entry
	cloudKey              *widget.Entry
	cloudTest             *widget.Button
	cloudHint, cloudState *widget.Label

	pushURL, pushKey *widget.Entry
	pushTest         *widget.Button
	pushState        *widget.Label

	demo      *widget.Button
	demoState *widget.Label

	page fyne.CanvasObject
}

func newWelcomePage(w *SettingsWindow) *welcomePage {
	p := &welcomePage{w: w}
	p.find = widget.NewButtonWithIcon(lang.L("Find local servers"), theme.SearchIcon(), p.scan)
	p.findState = wrapLabel("")
	p.found = container.NewVBox()

	p.cloudURL, p.cloudModel = widget.NewEntry(), widget.NewEntry()
	p.cloudKey = widget.NewPasswordEntry()
	p.cloudKey.SetPlaceHolder(lang.L("paste the key here"))
	p.cloudHint, p.cloudState = wrapLabel(""), wrapLabel("")
	var names []string
	for _, c := range cloudServices() {
		names = append(names, c.Name)
	}
	p.cloud = widget.NewSelect(names, p.pickCloud)
	p.cloud.PlaceHolder = lang.L("Choose a service")
	p.cloudTest = widget.NewButtonWithIcon(lang.L("Test and use"), theme.ConfirmIcon(), p.testCloud)

	p.pushURL, p.pushKey = widget.NewEntry(), widget.NewPasswordEntry()
	p.pushURL.SetPlaceHolder("wss://agent.example.com/yui")
	p.pushKey.SetPlaceHolder(lang.L("the agent's key, if it asks for one"))
	p.pushTest = widget.NewButtonWithIcon(lang.L("Test and use"), theme.ConfirmIcon(), p.testPush)
	p.pushState = wrapLabel("")

	p.demo = widget.NewButtonWithIcon(lang.L("Try the demo"), theme.MediaPlayIcon(), p.tryDemo)
	p.demo.Importance = widget.HighImportance
	p.demoState = wrapLabel("")
	p.page = p.build()
	return p
}

func wrapLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func welcomeHeading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

func (p *welcomePage) build() fyne.CanvasObject {
	var starts []string
	for _, s := range localserver.KnownPorts() {
		starts = append(starts, lang.L("• {{.Kind}} (port {{.Port}}): {{.Start}}", map[string]any{"Kind": s.Kind, "Port": s.Port, "Start": s.Start}))
	}
	local := container.NewVBox(welcomeHeading(lang.L("A model server on this computer")),
		wrapLabel(lang.L("Ollama, LM Studio, llama.cpp and the others serve the OpenAI API on a known port. Start one, then look for it:")),
		container.NewHBox(p.find), p.findState, p.found,
		widget.NewSeparator(), wrapLabel(strings.Join(starts, "\n")))
	cloud := container.NewVBox(welcomeHeading(lang.L("A cloud service")),
		widget.NewForm(
			widget.NewFormItem(lang.L("Service"), p.cloud),
			widget.NewFormItem(lang.L("Base URL"), p.cloudURL),
			widget.NewFormItem(lang.L("Model"), p.cloudModel),
			widget.NewFormItem(lang.L("Key"), p.cloudKey)),
		p.cloudHint, container.NewHBox(p.cloudTest), p.cloudState)
	push := container.NewVBox(welcomeHeading(lang.L("An agent over push")),
		wrapLabel(lang.L("An agent that speaks Yui's push protocol over a WebSocket:")),
		widget.NewForm(widget.NewFormItem(lang.L("URL"), p.pushURL), widget.NewFormItem(lang.L("Key"), p.pushKey)),
		container.NewHBox(p.pushTest), p.pushState)
	demo := container.NewVBox(welcomeHeading(lang.L("Or just look around")),
		wrapLabel(lang.L("The demo plays every kind of reply from a built-in simulator: no server, no key. Your settings stay as they are.")),
		container.NewHBox(p.demo), p.demoState)
	title := widget.NewLabelWithStyle(lang.L("Welcome to Yui"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	intro := wrapLabel(lang.L("Yui needs something to talk with. Pick one way in; everything can be changed later in the settings."))
	toSettings := widget.NewButtonWithIcon(lang.L("Settings"), theme.SettingsIcon(), p.w.showMain)
	top := container.NewBorder(nil, nil, nil, container.NewVBox(toSettings), container.NewVBox(title, intro))
	card := func(o fyne.CanvasObject) fyne.CanvasObject { return widget.NewCard("", "", o) }
	cols := container.NewGridWithColumns(2,
		container.NewVBox(card(local), card(demo)),
		container.NewVBox(card(cloud), card(push)))
	return container.NewBorder(container.NewPadded(top), nil, nil, nil, container.NewVScroll(cols))
}

// presetID is the preset a way in sets up: the one selected, else the
// active one.
func (p *welcomePage) presetID() string {
	if p.w.selected != "" {
		return p.w.selected
	}
	st := p.w.b.Store().Get()
	if a, ok := st.Active(); ok {
		return a.ID
	}
	return ""
}

// scan asks the local ports and lists what answered.
func (p *welcomePage) scan() {
	p.find.Disable()
	p.findState.SetText(lang.L("Looking on ports {{.Ports}}…", map[string]any{"Ports": portList()}))
	p.w.run(findTimeout, func(ctx context.Context) func() {
		found := p.w.b.FindServers(ctx)
		return func() {
			p.find.Enable()
			p.showFound(found)
		}
	})
}

func portList() string {
	var ps []string
	for _, s := range localserver.KnownPorts() {
		ps = append(ps, fmt.Sprint(s.Port))
	}
	return strings.Join(ps, ", ")
}

// showFound lists the servers found, each with a button to use it.
func (p *welcomePage) showFound(found []localserver.Server) {
	p.found.RemoveAll()
	defer p.found.Refresh() // Add and RemoveAll do not repaint (servers.go, setObjects)
	switch len(found) {
	case 0:
		p.findState.SetText(lang.L("No model server answers on this computer. Start one (see below) and look again."))
		return
	case 1:
		p.findState.SetText(lang.L("Found one server:"))
	default:
		p.findState.SetText(lang.N("Found {{.Count}} servers: choose one.", len(found), map[string]any{"Count": len(found)}))
	}
	inUse := ""
	if pr, ok := p.w.b.Store().Preset(p.presetID()); ok {
		inUse = pr.ChatBaseURL
	}
	for _, s := range found {
		label := wrapLabel(serverLabel(s) + "\n" + s.URL)
		use := widget.NewButton(lang.L("Use"), func() { p.use(s) })
		if s.URL == inUse {
			label.SetText(lang.L("{{.Server}} · in use\n{{.URL}}", map[string]any{"Server": serverLabel(s), "URL": s.URL}))
			label.TextStyle.Bold = true
		}
		row := container.NewBorder(nil, nil, nil, use, label)
		p.found.Add(row)
		if h := serverHint(s); h != "" {
			hint := wrapLabel(h)
			hint.Importance = widget.WarningImportance
			p.found.Add(hint)
		}
	}
}

func (p *welcomePage) use(s localserver.Server) {
	id := p.presetID()
	if id == "" {
		return
	}
	p.w.b.UseServer(id, s)
	p.showFound(p.w.b.FoundServers())
	p.findState.SetText(lang.L("Yui now talks with {{.Server}}.", map[string]any{"Server": serverLabel(s)}))
	p.w.log.Info("welcome_choice", "way", "local", "url", s.URL, "kind", string(s.Kind))
}

// pickCloud fills the service's base URL and suggested model.
func (p *welcomePage) pickCloud(name string) {
	for _, c := range cloudServices() {
		if c.Name == name {
			p.cloudURL.SetText(c.BaseURL)
			p.cloudModel.SetText(c.Model)
			p.cloudHint.SetText(lang.L("Key: {{.Hint}}", map[string]any{"Hint": c.KeyHint}))
			p.cloudState.SetText("")
		}
	}
}

func (p *welcomePage) cloudAPI() string {
	for _, c := range cloudServices() {
		if c.Name == p.cloud.Selected {
			return c.ChatAPI
		}
	}
	return settings.ChatAPIChatCompletions
}

// testCloud tests the service with the key as pasted and, when it
// answers, saves it into the preset.
func (p *welcomePage) testCloud() {
	if p.cloud.Selected == "" {
		p.cloudState.SetText(lang.L("Choose a service first."))
		return
	}
	api, url, model, key := p.cloudAPI(), strings.TrimSpace(p.cloudURL.Text), strings.TrimSpace(p.cloudModel.Text), strings.TrimSpace(p.cloudKey.Text)
	if key == "" {
		p.cloudState.SetText(lang.L("Paste the service's key first."))
		return
	}
	p.tryWay("cloud", p.cloudTest, p.cloudState, func(pr *settings.Preset) {
		pr.ChatAPI, pr.ChatBaseURL, pr.Model, pr.Key = api, url, model, key
	})
}

// testPush tests the agent and, when it says ready, saves it.
func (p *welcomePage) testPush() {
	url, key := strings.TrimSpace(p.pushURL.Text), strings.TrimSpace(p.pushKey.Text)
	if url == "" {
		p.pushState.SetText(lang.L("Type the agent's URL first."))
		return
	}
	p.tryWay("push", p.pushTest, p.pushState, func(pr *settings.Preset) {
		pr.ChatAPI, pr.ChatBaseURL, pr.Key = settings.ChatAPIPush, url, key
	})
}

// tryWay probes the preset with set applied and saves it once the backend
// answered; the result shows in state.
func (p *welcomePage) tryWay(way string, btn *widget.Button, state *widget.Label, set func(*settings.Preset)) {
	id := p.presetID()
	draft, ok := p.w.b.Store().Preset(id)
	if !ok {
		return
	}
	set(&draft)
	if errs := draft.ValidateEdit(); len(errs) > 0 {
		state.SetText(i18n.Field(errs[0]))
		return
	}
	btn.Disable()
	state.SetText(lang.L("Testing…"))
	p.w.run(probeTimeout, func(ctx context.Context) func() {
		res := p.w.b.Probe(ctx, draft)
		return func() {
			btn.Enable()
			if !res.OK {
				state.SetText(probeText(res))
				return
			}
			err := p.w.b.Store().UpdatePreset(id, func(pr *settings.Preset) error { set(pr); return nil })
			if err != nil {
				state.SetText(lang.L("Could not save: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
				return
			}
			state.SetText(lang.L("{{.Result}}. Saved: Yui talks with it now.", map[string]any{"Result": probeText(res)}))
			p.w.log.Info("welcome_choice", "way", way, "chat_api", draft.ChatAPI, "url", draft.ChatBaseURL)
		}
	})
}

func (p *welcomePage) tryDemo() {
	if err := p.w.b.TryDemo(); err != nil {
		p.demoState.SetText(lang.L("The demo could not start: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
		return
	}
	p.demo.Disable()
	p.demoState.SetText(lang.L("The demo runs: talk to the pet. Your settings are unchanged; the next start uses them again."))
	p.w.log.Info("welcome_choice", "way", "demo")
}

// ShowWelcome opens the window, or raises it, on the welcome page.
func (w *SettingsWindow) ShowWelcome() {
	if w.win == nil {
		w.Show("")
	}
	w.win.SetContent(w.welcome.page)
	w.win.Show()
	w.win.RequestFocus()
	if len(w.welcome.found.Objects) == 0 && !w.welcome.demo.Disabled() {
		// Nothing found: the quickest way to see Yui work is a key away.
		w.win.Canvas().Focus(w.welcome.demo)
	}
	w.log.Info("window_open", "window", "settings", "page", "welcome")
}

// findServers is the preset list's "Find local servers": the welcome
// page, scanning at once.
func (w *SettingsWindow) findServers() {
	w.ShowWelcome()
	w.welcome.scan()
}

// showMain leaves the welcome page for the settings.
func (w *SettingsWindow) showMain() {
	if w.win != nil {
		w.win.SetContent(w.main)
	}
}

// ServersFound shows servers the app found by itself (the first start's
// scan running again) on the welcome page, if the window is open.
func (w *SettingsWindow) ServersFound(found []localserver.Server) {
	if w.win != nil {
		w.welcome.showFound(found)
	}
}
