package pushcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"yui/transport/textcut"

	"github.com/gorilla/websocket"
)

// closeWrongKey is the close code of a wrong key.
const closeWrongKey = 4401

func evalReady(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeMain)
	if err != nil {
		return probeErr(err)
	}
	if len(ss[0].Frames) == 0 {
		return Fail, "no ready"
	}
	ready := ss[0].Frames[0]
	var f findings
	if raw, ok := ready.Obj["chat_id"]; ok {
		var id string
		if json.Unmarshal(raw, &id) != nil || id != ss[0].Hello.ChatID {
			f.add("ready chat_id %s is not the hello's %q", textcut.Cut(string(raw), 40), ss[0].Hello.ChatID)
		}
	}
	detail := "ready first; no max_turn_bytes (turns capped at 256 KiB, no images)"
	if raw, ok := ready.Obj["max_turn_bytes"]; ok {
		n, ok := positiveInt(raw)
		if !ok {
			f.add("max_turn_bytes %s is not a positive integer", textcut.Cut(string(raw), 40))
		}
		detail = fmt.Sprintf("ready first; max_turn_bytes %d", n)
	}
	return f.verdict(detail)
}

func evalKey(ev *evidence) (Status, string) {
	p := ev.probes[probeKey]
	if p == nil {
		return Fail, "probe key did not run"
	}
	if p.Err != nil {
		return probeErr(p.Err)
	}
	t := p.T
	switch {
	case len(t.Frames) > 0:
		return Fail, fmt.Sprintf("sent %d frames to a wrong key (first: %s)", len(t.Frames), describe(t.Frames[0]))
	case !t.Closed:
		return Fail, fmt.Sprintf("the socket was still open %v after a hello with a wrong key", ev.cfg.ReadyWait)
	case t.CloseCode == 0:
		return Fail, "closed the socket without a close code"
	case t.CloseCode != closeWrongKey:
		return Fail, fmt.Sprintf("closed with code %d, not 4401: the client retries it forever", t.CloseCode)
	}
	return Pass, "closed with 4401, nothing sent"
}

func evalStop(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeStop)
	if err != nil {
		return probeErr(err)
	}
	p, s := ev.probes[probeStop], ss[0]
	mark := s.Marks["stop"]
	ends := turnEnds(s.transcript)[p.StopTurn]
	if len(ends) > 0 && ends[0] < mark {
		return Skip, "the turn ended before its first frame could be stopped; give a --text that takes the backend longer to answer"
	}
	cutoff := p.StopSent.Add(ev.cfg.Grace)
	if p.PongAt.After(cutoff) {
		cutoff = p.PongAt
	}
	var f findings
	inFlight := 0
	for i, fr := range s.Frames[mark:] {
		if !readable(fr) || fr.TurnID != p.StopTurn || fr.Type == "turn_end" {
			continue
		}
		if fr.At.After(cutoff) {
			f.add("%s: %s of the stopped turn %v after the stop", where(s.Probe, mark+i), fr.Type, fr.At.Sub(p.StopSent).Round(time.Millisecond))
		} else {
			inFlight++
		}
	}
	if len(ends) == 0 {
		f.add("the stopped turn got no turn_end within %v", ev.cfg.TurnWait)
	}
	if f.n > 0 {
		return f.verdict("")
	}
	return Pass, fmt.Sprintf("turn_end %v after the stop; no frame of the stopped turn after it (%d were already on the wire)",
		s.Frames[ends[0]].At.Sub(p.StopSent).Round(time.Millisecond), inFlight)
}

func evalReset(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeReset)
	if err != nil {
		return probeErr(err)
	}
	p, s := ev.probes[probeReset], ss[0]
	mark := s.Marks["reset"]
	old := map[string]bool{}
	for _, fr := range s.Frames[:mark] {
		if readable(fr) && fr.Type == "delegations" {
			for _, id := range itemIDs(fr) {
				old[id] = true
			}
		}
	}
	if len(turnEnds(s.transcript)[p.TurnID]) == 0 {
		return Fail, "the turn after reset got no turn_end"
	}
	if len(old) == 0 {
		return Skip, "the backend listed no delegations before reset, so there was no work to end; a backend that delegates work in the first turn shows this"
	}
	for i, fr := range s.Frames[mark:] {
		if !readable(fr) || fr.Type != "delegations" {
			continue
		}
		for _, id := range itemIDs(fr) {
			if old[id] {
				return Fail, fmt.Sprintf("%s: the first delegations frame after reset still lists %q of the old conversation", where(s.Probe, mark+i), id)
			}
		}
		return Pass, "the first delegations frame after reset lists none of the old conversation's work; the next turn ran"
	}
	return Fail, "no delegations frame after reset: the client keeps listing the old conversation's work"
}

// itemIDs returns the ids of a delegations frame's items.
func itemIDs(fr frameIn) []string {
	var items []struct {
		ID string `json:"id"`
	}
	json.Unmarshal(fr.Obj["items"], &items)
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	return ids
}

func evalSizeIn(ev *evidence) (Status, string) {
	ss, err := ev.sessions(probeSize)
	if err != nil {
		return probeErr(err)
	}
	p, s := ev.probes[probeSize], ss[0]
	switch {
	case s.Closed:
		return Fail, fmt.Sprintf("closed the socket (code %d) on a turn frame of %d bytes (%s)", s.CloseCode, p.SizeBytes, p.SizeNote)
	case p.SendErr != nil:
		return Fail, fmt.Sprintf("a turn frame of %d bytes (%s) could not be sent: %v", p.SizeBytes, p.SizeNote, p.SendErr)
	case len(turnEnds(s.transcript)[p.TurnID]) == 0:
		return Fail, fmt.Sprintf("no turn_end for a turn frame of %d bytes (%s)", p.SizeBytes, p.SizeNote)
	}
	return Pass, fmt.Sprintf("a turn frame of %d bytes (%s) was answered", p.SizeBytes, p.SizeNote)
}

// replaceCodes are the codes a replaced socket may close with: the
// standard ones for a normal end. The spec names no code for it, and any
// code but 4401 makes the client reconnect.
var replaceCodes = []int{websocket.CloseNormalClosure, websocket.CloseGoingAway}

func evalSecond(ev *evidence) (Status, string) {
	p := ev.probes[probeSecond]
	if p == nil {
		return Fail, "probe second did not run"
	}
	if p.Err != nil {
		return probeErr(fmt.Errorf("probe second: %w", p.Err))
	}
	if len(turnEnds(p.B)[p.TurnID]) == 0 {
		return Fail, "the turn on the second connection got no turn_end"
	}
	a := p.T
	switch {
	case !a.Closed:
		return Pass, "the second connection got ready and its turn ended; the first socket stayed open"
	case a.CloseCode == closeWrongKey:
		return Fail, "closed the first socket with 4401: its client reads a wrong key and stops for good"
	case a.CloseCode == 0:
		return Fail, "dropped the first socket without a close code"
	case !slices.Contains(replaceCodes, a.CloseCode):
		return Fail, fmt.Sprintf("closed the first socket with %d, a code docs/protocol/push-transport.md does not name (close a replaced socket with 1000 or 1001, or keep it)", a.CloseCode)
	}
	return Pass, fmt.Sprintf("the second connection got ready and its turn ended; the first socket closed with %d", a.CloseCode)
}
