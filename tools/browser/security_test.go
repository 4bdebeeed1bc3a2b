package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyWebURLsAreOpened: a backend's URL is refused unless it is an
// absolute http or https URL with a host, whatever the scheme's case or
// the tricks around it; no browser runs for a refused URL.
func TestOnlyWebURLsAreOpened(t *testing.T) {
	b := New(Options{Status: func(string, string) { t.Error("a status for a refused URL") }})
	for _, u := range []string{
		"file:///etc/passwd", "FILE:///etc/passwd", "file://localhost/etc/passwd", " file:///etc/passwd",
		"javascript:alert(1)", "JavaScript:fetch('http://x')",
		"data:text/html,<script>alert(1)</script>", "blob:http://example.com/uuid",
		"chrome://settings", "chrome-extension://abc/x.html", "about:blank", "view-source:http://example.com",
		"ftp://example.com/x", "ws://example.com/ws", "filesystem:http://example.com/temporary/x",
		"/etc/passwd", "example.com", "//example.com/x", "",
		"http:/etc/passwd", "http:///etc/passwd", "http:file:///etc/passwd", "http://",
		"http://exa\tmple.com", "http://example.com/\n", "\x00http://example.com",
	} {
		args, _ := json.Marshal(map[string]string{"action": "read", "url": u})
		if got := b.Handle(context.Background(), call(string(args))).Text; got != "error: invalid field url" {
			t.Errorf("%q: %q, want error: invalid field url", u, got)
		}
	}
	for raw, want := range map[string]string{
		"https://example.com/a?b=c#d":           "https://example.com/a?b=c#d",
		"HTTP://Example.com/":                   "http://Example.com/",
		"http://user:pw@127.0.0.1:8080/":        "http://user:pw@127.0.0.1:8080/",
		"https://example.com@evil.example/x":    "https://example.com@evil.example/x",
		"http://127.0.0.1:1/file:///etc/passwd": "http://127.0.0.1:1/file:///etc/passwd",
	} {
		args, _ := json.Marshal(map[string]string{"action": "read", "url": raw})
		_, got, msg := parseArgs(args)
		if msg != "" || got != want {
			t.Errorf("%q: url %q, message %q; want %q accepted", raw, got, msg, want)
		}
	}
}

// TestAnswerOnlyFromAWebPage: the client's own check on the page the
// browser ended on.
func TestAnswerOnlyFromAWebPage(t *testing.T) {
	for loc, ok := range map[string]bool{
		"http://127.0.0.1:8080/x": true, "https://example.com/": true,
		"file:///etc/passwd": false, "about:blank": false, "data:text/html,x": false,
		"chrome-error://chromewebdata/": false, "chrome://version": false, "": false,
	} {
		if err := checkPage(loc); (err == nil) != ok {
			t.Errorf("checkPage(%q) = %v, want ok %v", loc, err, ok)
		}
	}
}

// TestRedirectsLeavingTheWebAreNotFollowed runs the browser found on this
// machine against loopback pages that try to take it to file: (and to
// data: and chrome:) by an HTTP redirect, a meta refresh, a script and a
// frame: no answer carries the file, and a redirect to another http page
// is followed as usual.
func TestRedirectsLeavingTheWebAreNotFollowed(t *testing.T) {
	path, ok := Find()
	if !ok {
		t.Skip("no Chromium-family browser on this machine")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	mux := http.NewServeMux()
	redirect := func(to string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", to)
			w.WriteHeader(http.StatusFound)
		}
	}
	mux.HandleFunc("/302-file", redirect("file:///etc/passwd"))
	mux.HandleFunc("/301-data", redirect("data:text/html,<title>data</title>root:x:0:0"))
	mux.HandleFunc("/307-chrome", redirect("chrome://version"))
	mux.HandleFunc("/meta", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><meta http-equiv="refresh" content="0;url=file:///etc/passwd"></head><body>meta</body></html>`)
	})
	mux.HandleFunc("/script", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><body>script<script>location.href = "file:///etc/passwd"</script></body></html>`)
	})
	mux.HandleFunc("/frame", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><body>frame<iframe src="file:///etc/passwd"></iframe></body></html>`)
	})
	mux.HandleFunc("/302-web", redirect("/landing"))
	mux.HandleFunc("/landing", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Landing</title></head><body>arrived</body></html>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	b := New(Options{ExecPath: path, AllowLocal: allowLocal})
	ctx, cancel := context.WithTimeout(context.Background(), 4*Wait)
	defer cancel()
	for _, p := range []string{"/302-file", "/301-data", "/307-chrome", "/meta", "/script", "/frame"} {
		actions := []string{"read"}
		if p == "/302-file" || p == "/script" {
			actions = append(actions, "screenshot")
		}
		for _, action := range actions {
			res := b.Handle(ctx, call(`{"action":"`+action+`","url":"`+srv.URL+p+`"}`))
			t.Logf("%s %s: %q (%d images)", action, p, res.Text, len(res.Images))
			if strings.Contains(res.Text, "root:") || strings.Contains(res.Text, "/bin/") || strings.Contains(res.Text, "Chromium") {
				t.Errorf("%s %s answered another scheme's page: %q", action, p, res.Text)
			}
			if strings.HasPrefix(p, "/30") && (!strings.HasPrefix(res.Text, "error: ") || len(res.Images) > 0) {
				t.Errorf("%s %s: %q with %d images, want an error", action, p, res.Text, len(res.Images))
			}
		}
	}
	if res := b.Handle(ctx, call(`{"action":"read","url":"`+srv.URL+`/302-web"}`)); res.Text != "title: Landing\n\narrived" {
		t.Errorf("an http redirect: %q", res.Text)
	}
}

// TestDownloadsAreRefused: a page served as an attachment saves nothing.
func TestDownloadsAreRefused(t *testing.T) {
	path, ok := Find()
	if !ok {
		t.Skip("no Chromium-family browser on this machine")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	home := t.TempDir()
	t.Setenv("HOME", home) // the browser's download folder is under it
	t.Setenv("XDG_DOWNLOAD_DIR", filepath.Join(home, "Downloads"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="payload.sh"`)
		fmt.Fprint(w, "#!/bin/sh\necho pwned\n")
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	res := New(Options{ExecPath: path, AllowLocal: allowLocal}).Handle(ctx, call(`{"action":"read","url":"`+srv.URL+`/payload.sh"}`))
	if strings.Contains(res.Text, "pwned") {
		t.Errorf("answer: %q", res.Text)
	}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "payload") {
			t.Errorf("downloaded: %s", p)
		}
		return nil
	})
}
