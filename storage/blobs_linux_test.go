package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestPutWritesOnlyTheNamedFile checks that Put goes through an unnamed
// file on Linux: the blob appears whole, private, and nothing else is left
// in its folder, also when several Puts store the same bytes at once.
func TestPutWritesOnlyTheNamedFile(t *testing.T) {
	b, err := OpenBlobs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("%PDF-1.7 unnamed first")
	dir := filepath.Dir(b.path(sha256Hex(data)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if ok, err := putUnnamed(dir, filepath.Join(dir, "probe"), []byte("x")); !ok || err != nil {
		t.Fatalf("putUnnamed on this machine: ok %v, %v; want the O_TMPFILE path", ok, err)
	}
	os.Remove(filepath.Join(dir, "probe"))

	var wg sync.WaitGroup
	hashes := make([]string, 4)
	errs := make([]error, 4)
	for i := range hashes {
		wg.Go(func() { hashes[i], errs[i] = b.Put(data) })
	}
	wg.Wait()
	for i := range hashes {
		if errs[i] != nil || hashes[i] != hashes[0] {
			t.Fatalf("put %d: %s, %v", i, hashes[i], errs[i])
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != hashes[0] {
		t.Fatalf("the blob's folder holds %v, want only %s", entries, hashes[0])
	}
	info, _ := entries[0].Info()
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("blob mode %v, want 0600", info.Mode().Perm())
	}
	if got, err := b.Read(hashes[0]); err != nil || string(got) != string(data) {
		t.Fatalf("read %q, %v", got, err)
	}
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
