package storage

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// openPebble opens (creating if needed) a Pebble database in dir, on the
// disk when fs is nil (tests give a crashable in-memory one).
func openPebble(dir string, fs vfs.FS) (*pebble.DB, error) {
	// Pebble's default block cache is 8 MB. Under a stream of documents the
	// reads on every request (API key, template, organisation) missed it
	// and read the disk: a quarter of the REST handler's CPU. 64 MB holds
	// them; it fills only as far as the data goes.
	cache := pebble.NewCache(blockCache)
	defer cache.Unref()
	db, err := pebble.Open(dir, &pebble.Options{
		Logger:             pebbleLogger{},
		FormatMajorVersion: pebble.FormatNewest,
		FS:                 fs,
		Cache:              cache,
	})
	if err != nil {
		return nil, fmt.Errorf("open pebble %s: %w", dir, err)
	}
	return db, nil
}

// blockCache is the size of each database's block cache.
const blockCache = 64 << 20

// pebbleLogger sends Pebble's messages to slog; its routine info lines are debug.
type pebbleLogger struct{}

func (pebbleLogger) Infof(format string, args ...any) {
	slog.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}
func (pebbleLogger) Errorf(format string, args ...any) {
	slog.Error(fmt.Sprintf(format, args...), "component", "pebble")
}
func (pebbleLogger) Fatalf(format string, args ...any) {
	slog.Error(fmt.Sprintf(format, args...), "component", "pebble")
	panic(fmt.Sprintf(format, args...))
}

// reader is what both a database and an indexed batch can answer.
type reader interface {
	Get(key []byte) ([]byte, io.Closer, error)
}

// getRecord reads and decodes the record at key into v.
func getRecord(r reader, key []byte, v any) error {
	raw, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("get %q: %w", key, err)
	}
	defer closer.Close()
	return decode(raw, v)
}

// getRaw returns a copy of the value at key.
func getRaw(r reader, key []byte) ([]byte, error) {
	raw, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("get %q: %w", key, err)
	}
	defer closer.Close()
	return append([]byte(nil), raw...), nil
}
