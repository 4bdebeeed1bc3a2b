// Package redact keeps what a user typed into a URL out of errors and
// logs: credentials pasted into a base URL ("https://user:key@host/v1"),
// and the whole URL that net/http repeats in every client error. It is the
// one URL redactor; it imports nothing of the project, so every layer may
// use it. (Keys are redacted from log records by the app log itself.)
package redact

import "net/url"

// URL returns u as text with its user information, when it has any,
// replaced by "xxx": the scheme, host and path stay, which is what an
// error about the URL needs.
func URL(u *url.URL) string {
	v := *u
	if v.User != nil {
		v.User = url.User("xxx")
	}
	return v.String()
}

// URLError returns the cause of a *url.Error, which net/http's client
// wraps around every failure with the method and the whole URL; the
// caller says which request failed. Other errors, and a *url.Error
// wrapped in context of the caller's, come back as they are.
func URLError(err error) error {
	if ue, ok := err.(*url.Error); ok && ue.Err != nil {
		return ue.Err
	}
	return err
}
