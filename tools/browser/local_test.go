package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// allowLocal is the settings switch turned on: the tests' pages are on
// loopback.
func allowLocal() bool { return true }

func TestLocalAddresses(t *testing.T) {
	for s, local := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "0.0.0.0": true, "::": true, "0.1.2.3": true,
		"10.0.0.1": true, "172.16.0.1": true, "172.31.255.255": true, "192.168.1.1": true,
		"fc00::1": true, "fd12:3456::1": true, "169.254.169.254": true, "fe80::1": true,
		"100.64.0.1": true, "100.127.255.254": true, "224.0.0.251": true, "239.255.255.250": true,
		"ff02::1": true, "255.255.255.255": true, "fec0::1": true,
		"::ffff:127.0.0.1": true, "::ffff:192.168.0.1": true, "64:ff9b::a9fe:a9fe": true,
		"8.8.8.8": false, "1.1.1.1": false, "172.32.0.1": false, "100.128.0.1": false,
		"2606:4700::1111": false, "::ffff:8.8.8.8": false, "64:ff9b::808:808": false, "93.184.215.14": false,
	} {
		if got := isLocal(netip.MustParseAddr(s)); got != local {
			t.Errorf("isLocal(%s) = %v, want %v", s, got, local)
		}
	}
}

// hits counts the requests a server on this computer got.
type hits struct{ n atomic.Int32 }

func (h *hits) server(t *testing.T, tls bool) *httptest.Server {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.n.Add(1)
		fmt.Fprint(w, `<html><head><title>Router admin</title></head><body>admin password: hunter2</body></html>`)
	})
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(handler)
	} else {
		srv = httptest.NewServer(handler)
	}
	t.Cleanup(srv.Close)
	return srv
}

// publicServer listens on 127.0.0.2, which the tests' rule counts as the
// public web: it stands for a web site that sends the browser to this
// computer.
func publicServer(t *testing.T, h http.Handler) *httptest.Server {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func publicIs127002(a netip.Addr) bool { return a != netip.MustParseAddr("127.0.0.2") && isLocal(a) }

// TestPagesOnThisComputerAreRefused runs the browser found on this
// machine: a loopback page (http and https), a redirect from the web to
// loopback, a name that resolves to loopback, a name that resolves to the
// web first and to loopback afterwards (DNS rebinding), and a web page
// whose own requests go to loopback. The local server never gets a
// request, and the calls answer the local-network error; a web page that
// only tries local subrequests is read without them. The settings switch
// lets the same local page through.
func TestPagesOnThisComputerAreRefused(t *testing.T) {
	path, ok := Find()
	if !ok {
		t.Skip("no Chromium-family browser on this machine")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	var local hits
	plain, tlsSrv := local.server(t, false), local.server(t, true)
	_, localPort, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))

	var mu sync.Mutex
	rebinds := 0
	resolve := func(ctx context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "router.test":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		case "both.test": // a public and a local address: refused
			return []netip.Addr{netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.1")}, nil
		case "rebind.test":
			mu.Lock()
			defer mu.Unlock()
			rebinds++
			if rebinds == 1 {
				return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/to-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/admin", http.StatusFound)
	})
	mux.HandleFunc("/to-loopback-https", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, tlsSrv.URL+"/admin", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/to-name", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://router.test:"+localPort+"/admin", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/script-to-loopback", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<html><body>moving<script>location.href = %q</script></body></html>`, plain.URL+"/admin")
	})
	mux.HandleFunc("/subrequests", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<html><head><title>News</title></head><body>Today's news.
<img src="%[1]s/a.png"><iframe src="%[1]s/frame"></iframe><script src="http://router.test:%[2]s/x.js"></script>
<script>for (const u of [%[1]q + "/xhr", "http://rebind.test:%[2]s/xhr"]) {
  const x = new XMLHttpRequest(); x.open("GET", u, false); try { x.send() } catch (e) {} }</script></body></html>`,
			plain.URL, localPort)
	})
	pub := publicServer(t, mux)
	_, pubPort, _ := net.SplitHostPort(strings.TrimPrefix(pub.URL, "http://"))

	b := New(Options{ExecPath: path, Resolve: resolve})
	b.isLocal = publicIs127002
	ctx, cancel := context.WithTimeout(context.Background(), 6*Wait)
	defer cancel()
	for _, c := range []struct{ action, url string }{
		{"read", plain.URL + "/admin"},
		{"screenshot", plain.URL + "/admin"},
		{"read", tlsSrv.URL + "/admin"},
		{"read", "http://localhost:" + localPort + "/admin"},
		{"read", "http://[::1]:" + localPort + "/admin"},
		{"read", "http://router.test:" + localPort + "/admin"},
		{"read", "http://both.test:" + localPort + "/admin"},
		{"read", pub.URL + "/to-loopback"},
		{"screenshot", pub.URL + "/to-loopback"},
		{"read", pub.URL + "/to-loopback-https"},
		{"read", pub.URL + "/to-name"},
		{"read", pub.URL + "/script-to-loopback"},
	} {
		res := b.Handle(ctx, call(`{"action":"`+c.action+`","url":"`+c.url+`"}`))
		if res.Text != ErrLocalPage || len(res.Images) > 0 {
			t.Errorf("%s %s: %q with %d images, want %q", c.action, c.url, res.Text, len(res.Images), ErrLocalPage)
		}
	}
	// Rebinding: the page comes from the web, its later request to the
	// same name finds it on this computer.
	res := b.Handle(ctx, call(`{"action":"read","url":"http://rebind.test:`+pubPort+`/subrequests"}`))
	if res.Text != "title: News\n\nToday's news." {
		t.Errorf("a web page with local subrequests: %q", res.Text)
	}
	if n := local.n.Load(); n != 0 {
		t.Fatalf("the local servers got %d requests", n)
	}
	mu.Lock()
	if rebinds < 2 {
		t.Errorf("rebind.test resolved %d times: its second request was not checked anew", rebinds)
	}
	mu.Unlock()

	// The switch in the settings lets the same pages through.
	on := New(Options{ExecPath: path, Resolve: resolve, AllowLocal: allowLocal})
	on.isLocal = publicIs127002
	for _, u := range []string{plain.URL + "/admin", pub.URL + "/to-name"} {
		if res := on.Handle(ctx, call(`{"action":"read","url":"`+u+`"}`)); res.Text != "title: Router admin\n\nadmin password: hunter2" {
			t.Errorf("allowed %s: %q", u, res.Text)
		}
	}
}
