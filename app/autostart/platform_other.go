//go:build !windows && !darwin

package autostart

// Open returns this platform's entry: the XDG autostart file.
func Open() (Entry, error) {
	dir, err := XDGDir()
	if err != nil {
		return nil, err
	}
	return XDG{Dir: dir}, nil
}
