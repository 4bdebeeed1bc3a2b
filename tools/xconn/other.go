//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package xconn

import (
	"errors"
	"image"
	"log/slog"
	"time"
)

// Conn is the X connection; there is none on this platform.
type Conn struct{}

var errNoX = errors.New("x11: not on this platform")

// Open fails: there is no X server to connect to here.
func Open(*slog.Logger) (*Conn, error) { return nil, errNoX }

// Monitors fails: there is no X connection here.
func (c *Conn) Monitors() ([]image.Rectangle, error) { return nil, errNoX }

// Pointer fails: there is no X connection here.
func (c *Conn) Pointer() (image.Point, error) { return image.Point{}, errNoX }

// WatchPointer does nothing: there is no X connection here.
func (c *Conn) WatchPointer(time.Duration, func(image.Point, bool)) func() { return func() {} }

// Close does nothing.
func (c *Conn) Close() error { return nil }
