package pushcheck

import (
	"fmt"
	"time"

	"yui/transport/textcut"
)

func evalToolDeclared(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeMain, probeBare)
	if err != nil {
		return probeErr(err)
	}
	var f findings
	n := 0
	for _, s := range ss {
		for _, c := range s.Calls {
			n++
			at := where(s.Probe, c.Index)
			fr := s.Frames[c.Index]
			name, nameOK := fr.str("name")
			switch {
			case !c.Readable:
				f.add("%s: tool_call without a string id, or with arguments that are not an object", at)
			case !nameOK:
				f.add("%s: tool_call without a string name", at)
			case len(s.Hello.Tools) == 0:
				f.add("%s: tool_call %q to a client that declared no tools", at, name)
			case !declared(s.Hello, name):
				f.add("%s: tool_call %q, a tool the client did not declare", at, name)
			}
			if _, ok := fr.str("turn_id"); !ok {
				f.add("%s: tool_call without a string turn_id", at)
			}
		}
	}
	if n == 0 {
		return Skip, "the backend called no tool; make it call one with --text (e.g. \"" + DefaultToolText + "\")"
	}
	return f.verdict(fmt.Sprintf("tool_calls: %d, each naming a declared tool", n))
}

func evalToolSchema(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeMain)
	if err != nil {
		return probeErr(err)
	}
	s := ss[0]
	var f findings
	n := 0
	for _, c := range s.Calls {
		if !c.Readable || !declared(s.Hello, c.Name) {
			continue // tool_call.declared reports it
		}
		n++
		t, _ := findTool(c.Name)
		if msg := t.checker.Check(c.Args); msg != "" {
			f.add("%s: %s arguments %s: the client answers %q", where(s.Probe, c.Index), c.Name, textcut.Cut(string(c.Args), 60), msg)
		}
	}
	if n == 0 {
		return Skip, "the backend called no declared tool; make it call one with --text (e.g. \"" + DefaultToolText + "\")"
	}
	return f.verdict(fmt.Sprintf("calls: %d, arguments valid against their schemas", n))
}

func evalToolSerial(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeMain)
	if err != nil {
		return probeErr(err)
	}
	s := ss[0]
	var f findings
	for _, c := range s.Calls {
		if c.Overlap != "" {
			f.add("%s: tool_call %q %s", where(s.Probe, c.Index), c.ID, c.Overlap)
		}
	}
	if len(s.Calls) == 0 {
		return Skip, "the backend called no tool; make it call one with --text (e.g. \"" + DefaultToolText + "\")"
	}
	return f.verdict(fmt.Sprintf("calls: %d, each after the previous one's result (answered %v after each call)", len(s.Calls), ev.cfg.AnswerDelay))
}

func evalToolWait(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeToolWait)
	if err != nil {
		return probeErr(err)
	}
	p := ev.probes[probeToolWait]
	s := ss[0]
	if p.Call == nil {
		return Skip, fmt.Sprintf("the backend called no tool in a turn with --tool-text %q; give a text that makes it call a declared tool", ev.cfg.ToolText)
	}
	name := p.Call.Name
	wait := ev.cfg.backendWait(name)
	sent := s.Frames[p.Call.Index].At
	if p.ProgressAt.IsZero() {
		return Fail, fmt.Sprintf("with its %s call unanswered the backend sent nothing more for %v: its wait (%v) never answered the call", name, (wait + ev.cfg.TurnWait).Round(time.Second), wait)
	}
	waited := p.ProgressAt.Sub(sent)
	if waited < wait-ev.cfg.ToolWaitTolerance {
		return Fail, fmt.Sprintf("with its %s call unanswered the backend moved on (a %s frame) after %v; the adapter waits %v for a tool_result", name, p.ProgressType, waited.Round(time.Millisecond), wait)
	}
	if len(turnEnds(s.transcript)[p.TurnID]) == 0 {
		return Fail, "after the late tool_result the turn got no turn_end"
	}
	if s.Closed {
		return Fail, fmt.Sprintf("the backend closed the socket (code %d) after the late tool_result", s.CloseCode)
	}
	return Pass, fmt.Sprintf("with its %s call unanswered the backend moved on after %v (wait %v); the late tool_result was ignored and the turn ended", name, waited.Round(time.Millisecond), wait)
}
