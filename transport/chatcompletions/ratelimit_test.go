package chatcompletions_test

import (
	"testing"

	rt "yui/transport/request/requesttest"
)

func TestRateLimitIsWaitedOutOnce(t *testing.T) {
	rt.RateLimits(t, func(t *testing.T, h rt.Handler) rt.RateLimitEnv {
		e := start(t, h, nil)
		return rt.RateLimitEnv{Tr: e.tr, Srv: e.srv, Clk: e.clk}
	}, func(w *rt.Writer) { w.Data(text("Hello."), stop(), "[DONE]") })
}
