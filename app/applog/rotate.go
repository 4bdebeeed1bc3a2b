package applog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// RotatingWriter writes to a file and rotates it by size: when a write
// would take the file past MaxSize, path becomes path.1, path.1 becomes
// path.2 and so on, the oldest past Backups is removed, and a new path is
// started. It is safe for concurrent use; each Write lands whole in one
// file, so a log record is never split across files.
type RotatingWriter struct {
	path    string
	maxSize int64
	backups int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// NewRotatingWriter opens (appending) or creates path with mode 0600.
// maxSize ≤ 0 means no rotation; backups is how many rotated files to keep.
func NewRotatingWriter(path string, maxSize int64, backups int) (*RotatingWriter, error) {
	w := &RotatingWriter{path: path, maxSize: maxSize, backups: max(backups, 0)}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *RotatingWriter) open() error {
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("applog: opening %s: %w", w.path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("applog: stat %s: %w", w.path, err)
	}
	w.f, w.size = f, fi.Size()
	return nil
}

// Path returns the path of the file being written.
func (w *RotatingWriter) Path() string { return w.path }

// Write writes p to the current file, rotating first when p would take it
// past the size limit (a record larger than the limit gets a file of its own).
func (w *RotatingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return 0, errors.New("applog: write to closed log")
	}
	if w.maxSize > 0 && w.size > 0 && w.size+int64(len(p)) > w.maxSize {
		if err := w.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := w.f.Write(p)
	w.size += int64(n)
	return n, err
}

// rotate shifts the files and opens a new one. Called with mu held.
func (w *RotatingWriter) rotate() error {
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("applog: closing %s: %w", w.path, err)
	}
	w.f = nil
	if w.backups == 0 {
		if err := os.Remove(w.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("applog: rotating: %w", err)
		}
	} else {
		// path.<backups> is overwritten by the rename below.
		for i := w.backups - 1; i >= 1; i-- {
			err := os.Rename(backupName(w.path, i), backupName(w.path, i+1))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("applog: rotating: %w", err)
			}
		}
		if err := os.Rename(w.path, backupName(w.path, 1)); err != nil {
			return fmt.Errorf("applog: rotating: %w", err)
		}
	}
	return w.open()
}

func backupName(path string, i int) string { return fmt.Sprintf("%s.%d", path, i) }

// Sync flushes the current file to disk.
func (w *RotatingWriter) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	return w.f.Sync()
}

// Close closes the current file. Later writes fail.
func (w *RotatingWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}
