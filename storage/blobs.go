package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// Blobs is a content-addressed store for PDFs: a blob's name is the sha256
// of its bytes. A blob is a file of its own (Put, PutUnsynced) or a record
// in a pack (PutLater, packs.go). A blob is on disk, synced, before any
// command refers to it, or carried in the raft log by the command itself,
// so an acknowledged document always has its file. The cluster copies
// blobs to a second holder separately.
type Blobs struct {
	dir   string
	packs *packs

	mu sync.Mutex // guards unsynced, writing and queue
	// unsynced are the blobs written unsynced since the last SyncUnsynced.
	unsynced map[string]bool
	// writing are the blobs PutLater gave the background writer, not yet
	// on disk; a reader of one waits for its done.
	writing map[string]chan struct{}
	queue   chan later
}

// later is a blob for the background writer.
type later struct {
	hash string
	data []byte
}

var hashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// OpenBlobs opens the blob store in dir.
func OpenBlobs(dir string) (*Blobs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p, err := openPacks(filepath.Join(dir, "packs"), packLimit)
	if err != nil {
		return nil, err
	}
	return &Blobs{dir: dir, packs: p, unsynced: map[string]bool{}, writing: map[string]chan struct{}{}}, nil
}

// Close waits for the background writer and syncs and closes the pack it
// appends to. A blob PutLater is given after Close is written to a file
// of its own.
func (b *Blobs) Close() error {
	b.drain()
	return b.packs.close()
}

// drain waits for every blob PutLater queued so far to be written.
func (b *Blobs) drain() {
	b.mu.Lock()
	var queued []chan struct{}
	for _, done := range b.writing {
		queued = append(queued, done)
	}
	b.mu.Unlock()
	for _, done := range queued {
		<-done
	}
}

// BlobHash is a blob's name: the hex sha256 of its bytes.
func BlobHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (b *Blobs) path(hash string) string { return filepath.Join(b.dir, hash[:2], hash) }

// Put stores data and returns its hash. Storing bytes already there is a no-op.
func (b *Blobs) Put(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	p := b.path(hash)
	dir := filepath.Dir(p)
	// The background writer writes a file under its own name (putFresh):
	// Has waits for it, and takes a file of the wrong size (one a crash cut
	// short) for missing, which the writes below replace whole.
	if b.Has(hash, int64(len(data))) {
		return hash, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if ok, err := putUnnamed(dir, p, data); ok {
		if err != nil {
			return "", err
		}
		// The link finds a file there when another write of the same bytes
		// got there first, maybe the background writer's, still writing,
		// or one cut short.
		if !b.Has(hash, int64(len(data))) {
			if err := writeRenamed(dir, p, data, true); err != nil {
				return "", err
			}
		}
		return hash, syncDir(dir)
	}
	if err := writeRenamed(dir, p, data, true); err != nil {
		return "", err
	}
	return hash, syncDir(dir)
}

// writeRenamed writes data to a temporary file in dir, synced if sync is
// set, and renames it to p: p is whole or absent.
func writeRenamed(dir, p string, data []byte, sync bool) error {
	tmp, err := os.CreateTemp(dir, ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if sync {
		if err := tmp.Sync(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// PutLater stores data unsynced, appended to a pack, in the background: it
// returns at once, and Open, Read, Has, Delete and SyncUnsynced wait for
// the write. The state machine calls it as it applies a command that
// carries a blob, which would otherwise wait for the write. A write that
// fails stops the node, as a failed write of the state does; the log holds
// the bytes, and RepairBlobs writes them when it starts again.
func (b *Blobs) PutLater(data []byte) string {
	hash := BlobHash(data)
	b.mu.Lock()
	if _, ok := b.writing[hash]; ok {
		b.mu.Unlock()
		return hash
	}
	if b.queue == nil {
		b.queue = make(chan later, 256)
		go b.writeLater(b.queue)
	}
	b.writing[hash] = make(chan struct{})
	q := b.queue
	b.mu.Unlock()
	q <- later{hash: hash, data: data}
	return hash
}

// writeLater writes the blobs PutLater queues, one after another.
func (b *Blobs) writeLater(q chan later) {
	for l := range q {
		if err := b.putFresh(l.hash, l.data); err != nil {
			panic(fmt.Sprintf("storage: write blob %s: %v", l.hash, err))
		}
		b.mu.Lock()
		done := b.writing[l.hash]
		delete(b.writing, l.hash)
		b.mu.Unlock()
		close(done)
	}
}

// putFresh stores a blob PutLater queued: appended to the newest pack,
// unsynced, unless it is stored already. Once the packs are closed, it is
// written to a file of its own.
func (b *Blobs) putFresh(hash string, data []byte) error {
	sum, _ := sumOf(hash)
	if b.packs.has(sum, int64(len(data))) {
		return nil
	}
	if fi, err := os.Stat(b.path(hash)); err == nil && fi.Size() == int64(len(data)) {
		return nil
	}
	if ok, err := b.packs.append(sum, data); ok {
		return err
	}
	_, err := b.PutUnsynced(data)
	return err
}

// settle waits until a blob PutLater queued is on disk.
func (b *Blobs) settle(hash string) {
	b.mu.Lock()
	done := b.writing[hash]
	b.mu.Unlock()
	if done != nil {
		<-done
	}
}

// PutUnsynced stores data as Put does, without syncing it: the caller
// holds the bytes durably elsewhere (the raft log) until SyncUnsynced. A
// file already there with the same size is kept.
func (b *Blobs) PutUnsynced(data []byte) (string, error) {
	hash := BlobHash(data)
	p := b.path(hash)
	if fi, err := os.Stat(p); err == nil && fi.Size() == int64(len(data)) {
		return hash, nil
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := writeRenamed(dir, p, data, false); err != nil {
		return "", err
	}
	b.mu.Lock()
	b.unsynced[hash] = true
	b.mu.Unlock()
	return hash, nil
}

// SyncUnsynced waits for the background writer, then syncs the pack it
// appends to, and every blob PutUnsynced wrote since the last call, and
// their folders: one group commit for all of them.
func (b *Blobs) SyncUnsynced() error {
	b.drain()
	if err := b.packs.sync(); err != nil {
		return err
	}
	b.mu.Lock()
	hashes := b.unsynced
	b.unsynced = map[string]bool{}
	b.mu.Unlock()
	dirs := map[string]bool{}
	var errs []error
	for hash := range hashes {
		p := b.path(hash)
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // expired and deleted since
		}
		if err == nil {
			err = f.Sync()
			f.Close()
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		dirs[filepath.Dir(p)] = true
	}
	for dir := range dirs {
		if err := syncDir(dir); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		// Tried again at the next snapshot.
		b.mu.Lock()
		for hash := range hashes {
			b.unsynced[hash] = true
		}
		b.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Has reports whether a blob is here whole: in a pack, or in a file of
// its own, with size bytes.
func (b *Blobs) Has(hash string, size int64) bool {
	b.settle(hash)
	if sum, ok := sumOf(hash); ok && b.packs.has(sum, size) {
		return true
	}
	fi, err := os.Stat(b.path(hash))
	return err == nil && fi.Size() == size
}

// Open opens a blob for reading.
func (b *Blobs) Open(hash string) (*BlobFile, error) {
	if !hashRE.MatchString(hash) {
		return nil, fmt.Errorf("%w: blob %q", ErrNotFound, hash)
	}
	b.settle(hash)
	sum, _ := sumOf(hash)
	if f, ok, err := b.packs.open(sum); ok || err != nil {
		return f, err
	}
	f, err := os.Open(b.path(hash))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: blob %s", ErrNotFound, hash)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &BlobFile{SectionReader: io.NewSectionReader(f, 0, fi.Size()), file: f}, nil
}

// Read returns a blob's bytes, checked against its hash.
func (b *Blobs) Read(hash string) ([]byte, error) {
	f, err := b.Open(hash)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, f.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != hash {
		return nil, fmt.Errorf("%w: blob %s does not match its hash", ErrCodec, hash)
	}
	return data, nil
}

// Delete removes a blob, from its pack and its own file: a pack's record
// is marked deleted and its bytes taken out of the file at once. A
// missing blob is not an error.
func (b *Blobs) Delete(hash string) error {
	if !hashRE.MatchString(hash) {
		return nil
	}
	b.settle(hash)
	sum, _ := sumOf(hash)
	perr := b.packs.remove(sum)
	err := os.Remove(b.path(hash))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	return errors.Join(perr, err)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
