package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Blobs is a content-addressed file store for PDFs: a file's name is the
// sha256 of its bytes. A blob is on disk, synced, before any command refers
// to it, so an acknowledged document always has its file. Blobs are not in
// the raft log; the cluster copies them to a second holder separately.
type Blobs struct {
	dir string
}

var hashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// OpenBlobs opens the blob store in dir.
func OpenBlobs(dir string) (*Blobs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Blobs{dir: dir}, nil
}

func (b *Blobs) path(hash string) string { return filepath.Join(b.dir, hash[:2], hash) }

// Put stores data and returns its hash. Storing bytes already there is a no-op.
func (b *Blobs) Put(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	p := b.path(hash)
	if _, err := os.Stat(p); err == nil {
		return hash, nil
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if ok, err := putUnnamed(dir, p, data); ok {
		if err != nil {
			return "", err
		}
		return hash, syncDir(dir)
	}
	tmp, err := os.CreateTemp(dir, ".put-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return "", err
	}
	return hash, syncDir(dir)
}

// Open opens a blob for reading.
func (b *Blobs) Open(hash string) (*os.File, error) {
	if !hashRE.MatchString(hash) {
		return nil, fmt.Errorf("%w: blob %q", ErrNotFound, hash)
	}
	f, err := os.Open(b.path(hash))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: blob %s", ErrNotFound, hash)
	}
	return f, err
}

// Read returns a blob's bytes, checked against its hash.
func (b *Blobs) Read(hash string) ([]byte, error) {
	f, err := b.Open(hash)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != hash {
		return nil, fmt.Errorf("%w: blob %s does not match its hash", ErrCodec, hash)
	}
	return data, nil
}

// Delete removes a blob; a missing one is not an error.
func (b *Blobs) Delete(hash string) error {
	if !hashRE.MatchString(hash) {
		return nil
	}
	err := os.Remove(b.path(hash))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
