//go:build !linux

package app

func residentBytes() (int64, bool) { return 0, false }

func openFiles() (int, bool) { return 0, false }
