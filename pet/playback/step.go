package playback

// step is the one place the queue's state machine moves. Every event — a
// turn started, a render, a turn's end, a closed utterance, an interrupt,
// a clip done — is a function that changes the state under q.mu and names
// the turn it touched; then, still under the lock, playback advances to
// what can play now (speak.go) and that turn settles (settle.go); last,
// outside the lock, the effects the step queued go out in order. An event
// that leaves nothing to play or settle makes those two no-ops: after
// every step, nothing playing means nothing queued and no cue waiting on
// a boundary. After Close no event runs.
func (q *Queue) step(event func() (turn string)) {
	q.mu.Lock()
	if !q.closed {
		id := event()
		q.advance()
		if id != "" {
			q.settle(id)
		}
	}
	q.mu.Unlock()
	// The Stage's methods and ReportFailed run here, outside the lock, so
	// that they may call back into the queue (see Stage).
	q.out.Flush()
}
