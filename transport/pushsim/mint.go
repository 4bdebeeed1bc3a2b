package pushsim

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"yui/transport"
)

// MintBatch is how many turns Mint sends between two round trips.
const MintBatch = 50

// mintToolWait bounds the wait for the client's answer to a batch's call.
const mintToolWait = 30 * time.Second

// Mint starts n turns of its own on the connection ("sim-mint-<i>"), each a
// silent render with one cue and its turn_end: the cheapest whole turn the
// client renders, so a benchmark can play thousands of them in minutes.
// Every MintBatch turns it calls address_character (declared by every pet
// window, answered at once with an error for an unknown name, changing
// nothing) and waits for the result, so the frames never pile up unread in
// the socket. It logs sim_mint every MintBatch turns and sim_mint_done at
// the end, then keeps the connection open, reading, until it closes.
func Mint(n int) Script {
	return func(ctx context.Context, c *Conn, log *slog.Logger) error {
		emotions := []string{"happy", "neutral"}
		var v transport.Vocabulary
		if json.Unmarshal(c.Hello.Vocabulary, &v) == nil && len(v.EmotionIDs) > 0 {
			emotions = v.EmotionIDs
		}
		for i := range n {
			id := "sim-mint-" + strconv.Itoa(i)
			cue := transport.Cue{EmotionID: emotions[i%len(emotions)]}
			if err := c.Send(frame{"type": "render", "turn_id": id, "source": Source,
				"segments": []transport.Segment{segment("", cue)}}); err != nil {
				return endErr(err)
			}
			if err := c.Send(frame{"type": "turn_end", "turn_id": id}); err != nil {
				return endErr(err)
			}
			if (i+1)%MintBatch == 0 || i == n-1 {
				if err := mintSync(ctx, c, id, i); err != nil {
					return endErr(err)
				}
				log.Info("sim_mint", "turns", i+1)
			}
		}
		log.Info("sim_mint_done", "turns", n)
		for {
			if _, err := c.Next(ctx); err != nil {
				return endErr(err)
			}
		}
	}
}

// mintSync sends one address_character call and waits for its result.
func mintSync(ctx context.Context, c *Conn, turnID string, i int) error {
	callID := fmt.Sprintf("mint-sync-%d", i)
	if err := c.Send(frame{"type": "tool_call", "id": callID, "turn_id": turnID, "name": "address_character",
		"arguments": map[string]string{"character": "nobody here", "text": "sync"}}); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, mintToolWait)
	defer cancel()
	for {
		f, err := c.NextOfType(wctx, "tool_result")
		if err != nil {
			if wctx.Err() != nil && ctx.Err() == nil {
				return fmt.Errorf("pushsim: mint: no tool_result for %s within %v", callID, mintToolWait)
			}
			return err
		}
		var r struct {
			ID string `json:"id"`
		}
		if f.Decode(&r) == nil && r.ID == callID {
			return nil
		}
	}
}
