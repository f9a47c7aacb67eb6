//go:build !linux

package storage

import (
	"errors"
	"os"
)

// putUnnamed is Linux's; elsewhere blobs are written through a named
// temporary file.
func putUnnamed(dir, p string, data []byte) (bool, error) { return false, nil }

// punch is Linux's; elsewhere a deleted blob's bytes are overwritten.
func punch(f *os.File, off, size int64) error { return errors.ErrUnsupported }
