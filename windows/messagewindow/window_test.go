package messagewindow

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"yui/pet"
	"yui/pet/settings"
	"yui/pet/transcript"
	"yui/transport"
	"yui/windows"
	"yui/windows/internal/fakeapp"
	"yui/windows/widgets"
)

// rowTexts are the texts row r draws, in order.
func rowTexts(r *messageRow) []string {
	var out []string
	for _, p := range r.layoutAt(r.Size().Width).parts {
		if p.kind == partText {
			out = append(out, p.text)
		}
	}
	return out
}

// drawnTexts are the texts of the canvas.Text objects r's renderer shows.
func drawnTexts(r *messageRow) []string {
	var out []string
	for _, o := range test.WidgetRenderer(r).Objects() {
		if t, ok := o.(*canvas.Text); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

func rowFor(t *testing.T, w *MessageWindow, seq int64) *messageRow {
	t.Helper()
	r, ok := w.conv.bySeq[seq]
	if !ok {
		t.Fatalf("no row for entry %d", seq)
	}
	return r
}

func hasText(texts []string, want string) bool { return slices.Contains(texts, want) }

func TestMessageWindowRendersEveryKind(t *testing.T) {
	b := newFakeBackend(t)
	id := firstPreset(t, b)
	c := b.Run(id)
	log := c.Transcript()
	typed := log.Add(transcript.Entry{Kind: transcript.KindUser, Trigger: "user message", Text: "hello there"})
	var triggered []transcript.Entry
	for _, tr := range []string{"user voice", "poke", "greeting", "check-in", "addressed by Mika"} {
		triggered = append(triggered, log.Add(transcript.Entry{Kind: transcript.KindUser, Trigger: tr}))
	}
	reply := log.Add(transcript.Entry{Kind: transcript.KindReply, TurnID: "t1", Text: "Hi! Nice to see you.",
		Cues: []transport.Cue{{EmotionID: "happy", MotionID: "wave", EmotionText: "(^_^)", Caption: "waves"}, {EmotionID: "happy"}}})
	var tools []transcript.Entry
	for _, st := range []string{"running", "done", "failed"} {
		tools = append(tools, log.Add(transcript.Entry{Kind: transcript.KindTool, Tool: "read_file", State: st}))
	}
	errE := log.Add(transcript.Entry{Kind: transcript.KindError, Text: "The request failed."})
	reset := log.Add(transcript.Entry{Kind: transcript.KindReset})

	w, _, _ := openMessages(t, b)

	r := rowFor(t, w, typed.Seq)
	if got := rowTexts(r); !hasText(got, "hello there") || len(got) != 2 { // the text and its time
		t.Errorf("typed user row draws %q, want the text and the time only", got)
	}
	for i, want := range []string{"voice", "poke", "greeting", "check-in", "addressed by Mika"} {
		if got := rowTexts(rowFor(t, w, triggered[i].Seq)); !hasText(got, want) {
			t.Errorf("user row with trigger %q draws %q, want chip %q", triggered[i].Trigger, got, want)
		}
	}
	got := rowTexts(rowFor(t, w, reply.Seq))
	for _, want := range []string{"happy", "wave", "(^_^)", "waves", "Hi! Nice to see you."} {
		if !hasText(got, want) {
			t.Errorf("reply row draws %q, want %q", got, want)
		}
	}
	if n := strings.Count(strings.Join(got, "|"), "happy"); n != 1 {
		t.Errorf("reply row shows the emotion chip %d times, want once", n)
	}
	if d := drawnTexts(rowFor(t, w, reply.Seq)); !hasText(d, "Hi! Nice to see you.") {
		t.Errorf("reply renderer draws %q", d)
	}
	for i, want := range []struct {
		text string
		dot  any
	}{{"read_file running", widgets.ColWaiting}, {"read_file done", widgets.ColReady}, {"read_file failed", widgets.ColFailed}} {
		r := rowFor(t, w, tools[i].Seq)
		if got := rowTexts(r); !hasText(got, want.text) {
			t.Errorf("tool row draws %q, want %q", got, want.text)
		}
		var dot any
		for _, p := range r.layoutAt(r.Size().Width).parts {
			if p.kind == partDot {
				dot = p.fill
			}
		}
		if dot != want.dot {
			t.Errorf("tool %s dot is %v, want %v", tools[i].State, dot, want.dot)
		}
	}
	r = rowFor(t, w, errE.Seq)
	var errColour any
	for _, p := range r.layoutAt(r.Size().Width).parts {
		if p.kind == partText && p.text == "The request failed." {
			errColour = p.fill
		}
	}
	if errColour != widgets.ColError {
		t.Errorf("error line colour %v, want %v", errColour, widgets.ColError)
	}
	if got := rowTexts(rowFor(t, w, reset.Seq)); !hasText(got, resetText) {
		t.Errorf("reset row draws %q", got)
	}
	// The rows are drawn text: a right click copies one.
	rr := rowFor(t, w, reply.Seq)
	test.TapSecondaryAt(rr, fyne.NewPos(20, 20))
	if w.win.Canvas().Overlays().Top() == nil {
		t.Fatal("a right click opened no menu")
	}
	rr.menu().Items[0].Action()
	if got := w.app.Clipboard().Content(); got != "Hi! Nice to see you." {
		t.Errorf("Copy put %q on the clipboard", got)
	}
	if w.win.Title() != "Yui — messages" {
		t.Errorf("title %q", w.win.Title())
	}
}

func TestMessageWindowReasoningStreamsThenCollapses(t *testing.T) {
	b := newFakeBackend(t)
	c := b.Run(firstPreset(t, b))
	w, _, _ := openMessages(t, b)
	log := c.Transcript()
	first := "Let me think about what the user wants here."
	e := log.Add(transcript.Entry{Kind: transcript.KindReasoning, TurnID: "t1", Text: first, Streaming: true})
	r := rowFor(t, w, e.Seq)
	if got := rowTexts(r); !hasText(got, reasoningStreaming) {
		t.Fatalf("streaming reasoning draws %q, want the %q header", got, reasoningStreaming)
	}
	long := first + strings.Repeat(" They asked about the weather, so I should check the forecast first.", 6)
	log.Grow(e.Seq, func(e *transcript.Entry) { e.Text = long })
	h := r.heightAt(w.conv.width)
	if got := rowTexts(r); len(got) < 4 || !hasText(got, toggleHide) {
		t.Fatalf("streaming reasoning draws %q, want every line, live", got)
	}
	log.Grow(e.Seq, func(e *transcript.Entry) { e.Streaming = false })
	got := rowTexts(r)
	if !hasText(got, reasoningTitle) || !hasText(got, toggleShow) || len(got) != 3 {
		t.Fatalf("finished reasoning draws %q, want the header, the toggle and one line", got)
	}
	if !strings.HasSuffix(got[2], "…") {
		t.Errorf("collapsed line %q does not end with an ellipsis", got[2])
	}
	if r.heightAt(w.conv.width) >= h {
		t.Errorf("collapsed height %v not below expanded %v", r.heightAt(w.conv.width), h)
	}
	test.Tap(r)
	if got := rowTexts(r); len(got) < 4 || !hasText(got, toggleHide) {
		t.Fatalf("expanded reasoning draws %q", got)
	}
	if r.Size().Height != r.heightAt(w.conv.width) {
		t.Errorf("row laid out %v tall, its layout is %v", r.Size().Height, r.heightAt(w.conv.width))
	}
	test.Tap(r)
	if got := rowTexts(r); len(got) != 3 {
		t.Errorf("collapsed again draws %q", got)
	}
}

func TestMessageWindowGrowRedrawsOnlyThatRow(t *testing.T) {
	b := newFakeBackend(t)
	c := b.Run(firstPreset(t, b))
	log := c.Transcript()
	for i := range 4 {
		log.Add(transcript.Entry{Kind: transcript.KindUser, Trigger: "user message", Text: strings.Repeat("word ", i+1)})
	}
	w, _, _ := openMessages(t, b)
	if w.conv.created != 4 {
		t.Fatalf("%d rows made for a history of 4", w.conv.created)
	}
	reply := log.Add(transcript.Entry{Kind: transcript.KindReply, TurnID: "t1", Text: "One."})
	if w.conv.created != 5 || len(w.conv.rows) != 5 {
		t.Fatalf("after Added: %d rows made, %d shown; want 5", w.conv.created, len(w.conv.rows))
	}
	before := map[int64]int{}
	for _, r := range w.conv.rows {
		before[r.entry.Seq] = r.renders
	}
	text := "One."
	for _, s := range []string{" Two.", " Three.", " Four, a longer sentence that wraps onto another line of the bubble."} {
		text += s
		log.Grow(reply.Seq, func(e *transcript.Entry) { e.Text = text })
	}
	if w.conv.created != 5 {
		t.Errorf("Grown made rows: %d made, want 5", w.conv.created)
	}
	for _, r := range w.conv.rows {
		if r.entry.Seq == reply.Seq {
			if r.renders <= before[r.entry.Seq] {
				t.Errorf("the grown row was not redrawn")
			}
			if got := rowTexts(r); !strings.Contains(strings.Join(got, " "), "Four, a longer") {
				t.Errorf("grown row draws %q", got)
			}
			continue
		}
		if r.renders != before[r.entry.Seq] {
			t.Errorf("row %d redrawn %d times by another row's growth", r.entry.Seq, r.renders-before[r.entry.Seq])
		}
	}
	// An Added that reached the window after the history holding it (the
	// log delivers outside its lock) updates the row instead of doubling it.
	late := reply
	late.Text = "One, late."
	w.conv.apply(transcript.Change{Op: transcript.Added, Entry: late})
	if len(w.conv.rows) != 5 || !hasText(rowTexts(rowFor(t, w, reply.Seq)), "One, late.") {
		t.Errorf("a late Added made %d rows", len(w.conv.rows))
	}
	log.Clear()
	if len(w.conv.rows) != 0 || len(w.conv.box.Objects) != 0 {
		t.Errorf("Cleared left %d rows", len(w.conv.rows))
	}
}

func TestMessageWindowFollowsTheNewestAtTheBottom(t *testing.T) {
	b := newFakeBackend(t)
	c := b.Run(firstPreset(t, b))
	log := c.Transcript()
	for range 40 {
		log.Add(transcript.Entry{Kind: transcript.KindUser, Trigger: "user message", Text: "a line of the history"})
	}
	w, _, _ := openMessages(t, b)
	sc := w.conv.scroll
	bottom := func() float32 { return w.conv.box.Size().Height - sc.Size().Height }
	if sc.Offset.Y != bottom() {
		t.Fatalf("opened at offset %v, want the bottom %v", sc.Offset.Y, bottom())
	}
	log.Add(transcript.Entry{Kind: transcript.KindReply, Text: "new"})
	if sc.Offset.Y != bottom() {
		t.Errorf("at the bottom, a new entry left the offset at %v, want %v", sc.Offset.Y, bottom())
	}
	if w.conv.rows[0].Visible() {
		t.Errorf("a row far above the view is drawn")
	}
	sc.ScrollToTop()
	w.conv.cull()
	log.Add(transcript.Entry{Kind: transcript.KindReply, Text: "newer"})
	if sc.Offset.Y != 0 {
		t.Errorf("scrolled up, a new entry moved the view to %v", sc.Offset.Y)
	}
	if !w.conv.rows[0].Visible() {
		t.Errorf("the first row is hidden while in view")
	}
}

func TestMessageWindowComposerSendsAndStops(t *testing.T) {
	b := newFakeBackend(t)
	c := b.Run(firstPreset(t, b))
	w, _, logs := openMessages(t, b)
	m := w.composer
	test.Type(m.entry, "hello")
	m.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(c.Sent, []string{"hello"}) || m.entry.Text != "" {
		t.Fatalf("Enter sent %q, entry %q", c.Sent, m.entry.Text)
	}
	test.Type(m.entry, "  ")
	test.Tap(m.button)
	if len(c.Sent) != 1 {
		t.Errorf("a blank line was sent: %q", c.Sent)
	}
	m.entry.SetText("")

	v := c.View()
	v.Running = true
	c.Publish(v)
	if m.button.Icon.Name() != theme.MediaStopIcon().Name() || !m.entry.Disabled() {
		t.Fatalf("while running: button %s, entry disabled %v", m.button.Icon.Name(), m.entry.Disabled())
	}
	test.Tap(m.button)
	if c.Stops != 1 {
		t.Errorf("Stop tapped: %d stops", c.Stops)
	}
	v.Running, v.ErrorLine = false, "The request failed."
	c.Publish(v)
	if m.button.Icon.Name() != theme.MailSendIcon().Name() || m.entry.Disabled() {
		t.Errorf("after the turn: button %s, entry disabled %v", m.button.Icon.Name(), m.entry.Disabled())
	}
	if !m.errLine.Visible() || m.errLine.Text != "The request failed." {
		t.Errorf("error line %q shown %v", m.errLine.Text, m.errLine.Visible())
	}
	v.ErrorLine = ""
	c.Publish(v)
	if m.errLine.Visible() {
		t.Errorf("an empty error line is shown")
	}
	if !strings.Contains(logs.String(), "msg=messages_composer_send") || !strings.Contains(logs.String(), "msg=messages_composer_stop") {
		t.Errorf("log lacks the composer records:\n%s", logs)
	}
}

func TestMessageWindowNotRunning(t *testing.T) {
	b := newFakeBackend(t)
	w, id, logs := openMessages(t, b)
	if w.connText.Text != notRunning {
		t.Errorf("connection reads %q, want %q", w.connText.Text, notRunning)
	}
	if !w.composer.entry.Disabled() || w.composer.entry.PlaceHolder != composerNotRunning {
		t.Errorf("composer not locked while not running")
	}
	if w.conv.placeholder.Hidden || !strings.Contains(w.conv.placeholder.Text, "not running") {
		t.Errorf("placeholder %q hidden %v", w.conv.placeholder.Text, w.conv.placeholder.Hidden)
	}
	test.Type(w.composer.entry, "x")
	test.Tap(w.composer.button) // nothing to send to, and no crash
	if want := "msg=window_open window=messages preset=" + id; !strings.Contains(logs.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, logs)
	}
}

func TestMessageWindowReattachesWhenTheConnChanges(t *testing.T) {
	b := newFakeBackend(t)
	id := firstPreset(t, b)
	w, _, _ := openMessages(t, b)

	c1 := b.Run(id)
	if w.conn != windows.Session(c1) || w.connText.Text != "ready" || w.composer.entry.Disabled() {
		t.Fatalf("did not attach to the started preset: conn text %q", w.connText.Text)
	}
	c1.Transcript().Add(transcript.Entry{Kind: transcript.KindUser, Trigger: "user message", Text: "first"})
	if len(w.conv.rows) != 1 {
		t.Fatalf("%d rows after one entry", len(w.conv.rows))
	}

	c2 := fakeapp.NewConn()
	c2.Transcript().Add(transcript.Entry{Kind: transcript.KindUser, Trigger: "poke"})
	c2.Transcript().Add(transcript.Entry{Kind: transcript.KindReply, Text: "Hey!"})
	b.Replace(id, c2)
	b.StopRunning("other") // any start or stop tells the watchers
	if w.conn != windows.Session(c2) || len(w.conv.rows) != 2 {
		t.Fatalf("after the restart: %d rows, attached to the new conn %v", len(w.conv.rows), w.conn == windows.Session(c2))
	}
	// The old connection is no longer mirrored.
	c1.Transcript().Add(transcript.Entry{Kind: transcript.KindError, Text: "old"})
	v := c1.View()
	v.Pill.Conn = "reconnecting in 4 s"
	c1.Publish(v)
	if len(w.conv.rows) != 2 || w.connText.Text != "ready" {
		t.Errorf("the old connection still reaches the window: %d rows, %q", len(w.conv.rows), w.connText.Text)
	}
	v = c2.View()
	v.Pill.Conn, v.Pill.ConnState = "key rejected", transport.StateKeyRejected
	c2.Publish(v)
	if w.connText.Text != "key rejected" || w.dot.FillColor != widgets.ColFailed {
		t.Errorf("conn %q dot %v", w.connText.Text, w.dot.FillColor)
	}

	b.StopRunning(id)
	if w.conn != nil || w.connText.Text != notRunning || !w.composer.entry.Disabled() {
		t.Errorf("after the stop: conn text %q, composer disabled %v", w.connText.Text, w.composer.entry.Disabled())
	}
	if len(w.conv.rows) != 2 {
		t.Errorf("the history went with the connection: %d rows", len(w.conv.rows))
	}
}

func TestMessageWindowUsageReadout(t *testing.T) {
	for _, tc := range []struct {
		u    *transport.Usage
		cw   int
		want string
	}{
		{nil, 8192, "—"},
		{&transport.Usage{TotalTokens: 1234}, 8192, "1,234 / 8,192 tokens"},
		{&transport.Usage{TotalTokens: 1234}, 0, "1,234 tokens"},
		{&transport.Usage{TotalTokens: 7}, 1000000, "7 / 1,000,000 tokens"},
		{&transport.Usage{TotalTokens: 123456}, 200000, "123,456 / 200,000 tokens"},
	} {
		if got := usageText(tc.u, tc.cw); got != tc.want {
			t.Errorf("usageText(%v, %d) = %q, want %q", tc.u, tc.cw, got, tc.want)
		}
	}

	b := newFakeBackend(t)
	id := firstPreset(t, b)
	editPreset(t, b, id, func(p *settings.Preset) { p.ContextWindow = 8192 })
	c := b.Run(id)
	w, _, _ := openMessages(t, b)
	if w.usage.Text != "—" {
		t.Errorf("before any usage: %q", w.usage.Text)
	}
	v := c.View()
	v.Usage = &transport.Usage{InputTokens: 1200, OutputTokens: 34, TotalTokens: 1234}
	c.Publish(v)
	if w.usage.Text != "1,234 / 8,192 tokens" {
		t.Errorf("usage %q", w.usage.Text)
	}
	editPreset(t, b, id, func(p *settings.Preset) { p.ContextWindow = 0 })
	if w.usage.Text != "1,234 tokens" {
		t.Errorf("usage without a context window %q", w.usage.Text)
	}
}

func TestMessageWindowRelationMeter(t *testing.T) {
	for _, tc := range []struct {
		score int
		want  string
	}{
		{-5, "cold"}, {0, "cold"}, {19, "cold"}, {20, "cool"}, {39, "cool"}, {40, "neutral"},
		{59, "neutral"}, {60, "warm"}, {79, "warm"}, {80, "close"}, {100, "close"}, {130, "close"},
	} {
		if got := levelOf(tc.score).String(); got != tc.want {
			t.Errorf("score %d is %q, want %q", tc.score, got, tc.want)
		}
	}

	b := newFakeBackend(t)
	id := firstPreset(t, b)
	b.Run(id)
	w, _, _ := openMessages(t, b)
	if got := w.meter.label(); got != "neutral 50" {
		t.Errorf("a new preset's meter reads %q", got)
	}
	if _, err := b.Settings.Relation(id).AddScore(30); err != nil {
		t.Fatal(err)
	}
	if got := w.meter.label(); got != "close 80" {
		t.Errorf("after +30 the meter reads %q", got)
	}
	full := 0
	for _, h := range test.WidgetRenderer(w.meter).(*heartMeterRenderer).hearts {
		if h.Resource == heartFull {
			full++
		}
	}
	if full != relationLevels {
		t.Errorf("%d full hearts at close, want %d", full, relationLevels)
	}
	editPreset(t, b, id, func(p *settings.Preset) { p.Name = "Mika" })
	if w.win.Title() != "Mika — messages" {
		t.Errorf("title after a rename %q", w.win.Title())
	}
}

func TestMessageWindowShowRaisesAndCloseLetsGo(t *testing.T) {
	b := newFakeBackend(t)
	c := b.Run(firstPreset(t, b))
	w, _, logs := openMessages(t, b)
	first := w.win
	w.Show()
	if w.win != first || strings.Count(logs.String(), "window_open") != 1 {
		t.Errorf("Show on an open window opened another")
	}
	w.Close()
	if w.win != nil {
		t.Fatal("Close left the window")
	}
	c.Publish(pet.View{Running: true}) // no longer watched: no crash
	c.Transcript().Add(transcript.Entry{Kind: transcript.KindReply, Text: "late"})
	watchers := c.Watchers()
	if watchers != 0 {
		t.Errorf("%d view watchers left after Close", watchers)
	}
	w.Show()
	if w.win == nil || len(w.conv.rows) != 1 {
		t.Errorf("reopened: rows %d", len(w.conv.rows))
	}
}

func TestMessageWindowRunawayTextStaysBounded(t *testing.T) {
	b := newFakeBackend(t)
	c := b.Run(firstPreset(t, b))
	huge := strings.Repeat("lorem ipsum dolor sit amet ", 20000) // 540,000 characters
	e := c.Transcript().Add(transcript.Entry{Kind: transcript.KindReply, Text: huge})
	w, _, _ := openMessages(t, b)
	r := rowFor(t, w, e.Seq)
	got := rowTexts(r)
	if len(got) > maxWrapLines+2 || !strings.HasSuffix(got[len(got)-1], "(cut: Copy gives all of it)") {
		t.Errorf("a runaway reply draws %d lines ending %q", len(got), got[len(got)-1])
	}
	if r.menu() == nil || entryCopyText(r.entry) != huge {
		t.Errorf("Copy does not give the whole text")
	}
}

// A text that grows at its end wraps the same through the row's cache as
// afresh, whether it grows by words, inside a word, inside a word too
// wide for a line, or by new paragraphs.
func TestMessageRowWrapCacheMatchesAFreshWrap(t *testing.T) {
	test.NewTempApp(t)
	full := "Let me think. The user asks about the weather in Lisbon tomorrow and " +
		"whether to take an umbrella.\n\nI should check the forecast first, then answer briefly: " +
		strings.Repeat("x", 90) + " supercalifragilisticexpialidocious words after the long one.\nLast line."
	var wc wrapCache
	r := []rune(full)
	for n := 1; n <= len(r); n += 1 + n%4 {
		text := string(r[:n])
		got := wc.wrap(text, 180, msgTextSize)
		want := (*wrapCache)(nil).wrap(text, 180, msgTextSize)
		if !slices.Equal(got, want) {
			t.Fatalf("after %d runes the cache wraps\n%q\nafresh\n%q", n, got, want)
		}
	}
	// Japanese, which breaks between characters but not before 。 or 」.
	ja := strings.Repeat("「こんにちは！」と彼女は言った。今日は、とてもいい天気ですね。", 4)
	wc = wrapCache{}
	r = []rune(ja)
	for n := 1; n <= len(r); n++ {
		text := string(r[:n])
		got := wc.wrap(text, 180, msgTextSize)
		if want := (*wrapCache)(nil).wrap(text, 180, msgTextSize); !slices.Equal(got, want) {
			t.Fatalf("after %d runes the cache wraps\n%q\nafresh\n%q", n, got, want)
		}
		for _, l := range got[1:] {
			if strings.ContainsAny(string([]rune(l)[:1]), "。、」！") {
				t.Fatalf("a line starts with a closing mark: %q", got)
			}
		}
	}
	// A text that is not a growth (an edit) wraps afresh too.
	if got, want := wc.wrap("Something else entirely.", 180, msgTextSize), (*wrapCache)(nil).wrap("Something else entirely.", 180, msgTextSize); !slices.Equal(got, want) {
		t.Errorf("an edit wraps %q, want %q", got, want)
	}
}

func TestMessageWindowClosesWhenItsPresetIsDeleted(t *testing.T) {
	b := newFakeBackend(t)
	if _, err := b.Settings.AddPreset("Mika"); err != nil {
		t.Fatal(err)
	}
	c := b.Run(firstPreset(t, b))
	w, id, _ := openMessages(t, b)
	if err := b.Settings.DeletePreset(id); err != nil {
		t.Fatal(err)
	}
	if w.win != nil {
		t.Fatal("the window of a deleted preset stays open")
	}
	if n := c.Watchers(); n != 0 {
		t.Errorf("%d view watchers left", n)
	}
}
