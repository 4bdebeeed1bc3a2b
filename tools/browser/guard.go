package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// ErrLocalPage is the call's answer when the page is refused by the local
// network rule (docs/protocol/client-tools.md).
const ErrLocalPage = "error: the page is on this computer or the local network"

// errLocal is the dial error for an address the rule refuses.
var errLocal = errors.New("the address is on this computer or the local network")

// localPrefixes are the ranges netip.Addr has no method for: CGNAT
// (100.64/10), "this network" (0/8, which Linux routes to this machine),
// the limited broadcast, and IPv6's deprecated site-local range.
var localPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("255.255.255.255/32"),
	netip.MustParsePrefix("fec0::/10"),
}

// nat64 is the well-known NAT64 prefix: its last 32 bits are an IPv4
// address, which a NAT64 gateway reaches.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// isLocal reports whether a is on this computer or the local network:
// loopback, private (RFC 1918, fc00::/7), link-local, CGNAT, multicast,
// broadcast or unspecified, also when written as an IPv4-mapped or NAT64
// IPv6 address.
func isLocal(a netip.Addr) bool {
	a = a.Unmap()
	if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:16]))
	}
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsMulticast() ||
		a.IsUnspecified() || !a.IsValid() {
		return true
	}
	for _, p := range localPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// lookupFunc resolves a host name to its addresses.
type lookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// guard is the proxy every request of one browser run goes through: it
// resolves each host itself and dials the very address it checked, so the
// check holds at connection time (a name that resolves anew to a local
// address, DNS rebinding, is checked anew). Chromium is started with it as
// its only proxy and without the implicit loopback bypass.
type guard struct {
	allowLocal bool
	isLocal    func(netip.Addr) bool
	lookup     lookupFunc
	log        *slog.Logger
	dialer     net.Dialer

	ln    net.Listener
	srv   *http.Server
	proxy *httputil.ReverseProxy
	wg    sync.WaitGroup

	mu      sync.Mutex
	refused int                 // connections refused so far
	plain   map[string]struct{} // the http URLs answered with the refusal page
	failed  map[string]string   // the http URLs the proxy could not reach, with why
	tunnels map[net.Conn]struct{}
}

// startGuard listens on a loopback port and serves the proxy until close.
func startGuard(allowLocal bool, local func(netip.Addr) bool, lookup lookupFunc, log *slog.Logger) (*guard, error) {
	if local == nil {
		local = isLocal
	}
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browser proxy: %w", err)
	}
	g := &guard{allowLocal: allowLocal, isLocal: local, lookup: lookup, log: log, ln: ln, plain: map[string]struct{}{}, failed: map[string]string{}, tunnels: map[net.Conn]struct{}{}}
	g.dialer.Timeout = 15 * time.Second
	g.proxy = &httputil.ReverseProxy{
		Rewrite: func(*httputil.ProxyRequest) {}, // the absolute URL goes on as it came
		Transport: &http.Transport{
			Proxy:                 nil, // never another proxy: this one is the check
			DialContext:           g.dial,
			ResponseHeaderTimeout: Wait,
			MaxIdleConnsPerHost:   4,
		},
		ErrorHandler: g.plainError,
	}
	g.srv = &http.Server{Handler: g, ReadHeaderTimeout: 10 * time.Second}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		g.srv.Serve(ln)
	}()
	return g, nil
}

// addr is the proxy's address for --proxy-server.
func (g *guard) addr() string { return g.ln.Addr().String() }

// close stops the proxy, its tunnels and its connections.
func (g *guard) close() {
	g.srv.Close()
	g.mu.Lock()
	for c := range g.tunnels {
		c.Close()
	}
	g.tunnels = nil
	g.mu.Unlock()
	g.proxy.Transport.(*http.Transport).CloseIdleConnections()
	g.wg.Wait()
}

// dial resolves host, refuses it when any of its addresses is local (unless
// allowed), and connects to the address it checked.
func (g *guard) dial(ctx context.Context, network, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = g.lookup(ctx, host); err != nil {
		return nil, err
	}
	if !g.allowLocal {
		for _, a := range addrs {
			if g.isLocal(a) {
				g.mu.Lock()
				g.refused++
				g.mu.Unlock()
				// Debug: a page may try hundreds; the call logs its own refusal.
				g.log.Debug("browser: request refused", "host", hostport, "addr", a.String())
				return nil, errLocal
			}
		}
	}
	var last error = fmt.Errorf("no address for %s", host)
	for _, a := range addrs {
		c, err := g.dialer.DialContext(ctx, "tcp", net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// ServeHTTP forwards a plain http request, or opens a CONNECT tunnel
// (https, and WebSockets).
func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		if r.URL.Scheme != "http" || r.URL.Host == "" {
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		g.proxy.ServeHTTP(w, r)
		return
	}
	up, err := g.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		code := http.StatusBadGateway
		if errors.Is(err, errLocal) {
			code = http.StatusForbidden
		}
		http.Error(w, err.Error(), code)
		return
	}
	down, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !g.track(up, down) {
		return
	}
	defer g.untrack(up, down)
	if _, err := io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, buf) // what the browser sent after CONNECT, then the rest
		if c, ok := up.(*net.TCPConn); ok {
			c.CloseWrite()
		}
	}()
	io.Copy(down, up)
	down.Close()
	<-done
}

// track registers a tunnel's two connections so that close ends them; it
// closes them and answers false when the proxy is already closing.
func (g *guard) track(cs ...net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.tunnels == nil {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		g.tunnels[c] = struct{}{}
	}
	return true
}

func (g *guard) untrack(cs ...net.Conn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(g.tunnels, c)
	}
}

// plainError answers a plain http request the proxy could not forward;
// a refused one gets its own page, remembered by its URL.
func (g *guard) plainError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errLocal) {
		g.mu.Lock()
		g.plain[pageKey(r.URL.String())] = struct{}{}
		g.mu.Unlock()
		http.Error(w, ErrLocalPage, http.StatusForbidden)
		return
	}
	g.mu.Lock()
	g.failed[pageKey(r.URL.String())] = err.Error()
	g.mu.Unlock()
	http.Error(w, "the page could not be opened: "+err.Error(), http.StatusBadGateway)
}

// pageKey is a URL without its fragment, which never reaches a server.
func pageKey(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return u
}

// refusedAny reports whether any connection was refused so far.
func (g *guard) refusedAny() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refused > 0
}

// refusedPage reports whether the http page at u was answered with the
// refusal page.
func (g *guard) refusedPage(u string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.plain[pageKey(u)]
	return ok
}

// errPageLocal: the page the call asked for, or one it was taken to, is on
// this computer or the local network.
var errPageLocal = errors.New("the page is on this computer or the local network")

// guardFlags route every request of the browser through the proxy at addr:
// loopback too (Chromium bypasses a proxy for loopback unless told
// "<-loopback>"), and WebRTC gets no UDP of its own around it.
func guardFlags(addr string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ProxyServer("http://" + addr),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
	}
}

// checkPage is the package's checkPage on the page the answer is read
// from, which must also not be a page the proxy refused: an http page
// replaced by the refusal page, or Chromium's error page after a refused
// navigation (a script's, or a meta refresh's).
func (g *guard) checkPage(loc string) error {
	if g.refusedPage(loc) || strings.HasPrefix(loc, "chrome-error:") && g.refusedAny() {
		return errPageLocal
	}
	g.mu.Lock()
	why, failed := g.failed[pageKey(loc)]
	g.mu.Unlock()
	if failed { // what the browser would have said had it connected itself
		return errors.New(why)
	}
	return checkPage(loc)
}
