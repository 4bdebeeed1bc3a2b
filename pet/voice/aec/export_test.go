package aec

// Internals the tests look at.
func (c *Canceller) DebugState() (delay int, adapted bool, leak float64, hold int, sumAdapt float64) {
	return c.delay, c.f.adapt.adapted, c.f.adapt.leak, c.stats.hold, c.f.adapt.sumAdapt
}
