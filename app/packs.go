package app

import (
	"sync"

	"yui/pet/character"
	"yui/windows/petwindow"
)

// packCache shares each character's pack as the pet windows draw it,
// scaled to the window's pixels, between the pets that show it: three
// pets of one character decode and scale its images once. An entry lives
// while a running pet holds it; a pet started later, when none does,
// loads the pack from disk again (the user may have changed it).
type packCache struct {
	mu sync.Mutex
	m  map[packKey]*sharedPack
}

type packKey struct {
	id   string
	w, h int
}

type sharedPack struct {
	pack  *character.Pack
	users int
}

// running returns a scaled pack of character id that a running pet holds,
// nil when none does.
func (c *packCache) running(id string) *character.Pack {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		if k.id == id {
			return e.pack
		}
	}
	return nil
}

// scaled returns p scaled to w x h pixels, shared with every pet showing
// the same character at that size; release gives it back.
func (c *packCache) scaled(p *character.Pack, w, h int) (*character.Pack, packKey) {
	k := packKey{p.ID, w, h}
	c.mu.Lock()
	if e, ok := c.m[k]; ok {
		e.users++
		c.mu.Unlock()
		return e.pack, k
	}
	c.mu.Unlock()
	// Scaling decodes and re-encodes every image: not under the lock.
	s := petwindow.ScaledPack(p, w, h)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[packKey]*sharedPack{}
	}
	if e, ok := c.m[k]; ok { // another pet got there first
		e.users++
		return e.pack, k
	}
	c.m[k] = &sharedPack{pack: s, users: 1}
	return s, k
}

// release gives back a pack scaled returned.
func (c *packCache) release(k packKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		if e.users--; e.users <= 0 {
			delete(c.m, k)
		}
	}
}
