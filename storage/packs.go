package storage

// Packs hold the PDFs the state machine writes in the background
// (Blobs.PutLater): one append to an open file per document, where a file
// of its own costs the file system an inode, a folder entry and a journal
// commit. On this machine's ext4 that creation was most of the 0.8 ms of
// CPU a document's file cost the node; an append is about 10 µs.
//
// A pack is records, each a header and the blob's bytes:
//
//	magic "PBK1" | state byte | 3 zero bytes | size, 8 bytes big-endian |
//	sha256, 32 bytes | CRC-32C of size, sha256 and bytes, 4 bytes | bytes
//
// The state byte is packLive, or packDeleted once the blob is deleted: the
// byte is written in place and synced, then the bytes' blocks are punched
// out of the file (zeros where the file system cannot punch), at once, or
// when the last reader of the record closes it. A pack whose records are
// all deleted is removed, unless it is the one being appended to.
//
// Only the newest pack is ever appended to; a pack is synced before the
// next is made, and at each snapshot (SyncUnsynced), and the file synced
// then says which pack was synced and to what size. So only the newest
// pack can end in records a crash cut short, after that size: opening the
// store checks them against their CRC and cuts the file before the first
// that fails. Those blobs' raft entries are still in the log (a snapshot
// syncs the pack first), and RepairBlobs writes them again. A record that
// fails before that size, a pack shorter than it, or a missing pack is
// damage: the store does not open.

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

const (
	packMagic      = "PBK1"
	packHeaderSize = 52
	packLive       = 'B'
	packDeleted    = 'X'
	// packLimit is the size past which the next blob starts a new pack.
	packLimit = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// packLoc is where a blob's bytes are: pack seq, from off, size bytes.
type packLoc struct {
	seq       uint32
	off, size int64
}

// header is the offset of the record's header.
func (l packLoc) header() int64 { return l.off - packHeaderSize }

type packs struct {
	dir   string
	limit int64

	mu    sync.Mutex // guards everything below
	index map[[32]byte]packLoc
	live  map[uint32]int // live records in each pack there is
	// readers counts the open BlobFiles of each record; a record deleted
	// while one is open is pending, and its bytes are punched out when
	// the last closes, as an open file's bytes outlive its unlink.
	readers map[packLoc]int
	pending map[packLoc]bool
	// active is the pack appended to, nil until the first append; end is
	// its size, dirty whether it was appended to since it was last synced.
	active    *os.File
	activeSeq uint32
	end       int64
	dirty     bool
	closed    bool
	// synced is the file that says how much of which pack was last
	// synced (writeSynced).
	synced *os.File
	// broken is the first failed sync: after one, the kernel may have
	// dropped the pages it could not write, and a later sync that succeeds
	// proves nothing, so nothing more is appended or called synced.
	broken error
}

func (p *packs) path(seq uint32) string {
	return filepath.Join(p.dir, fmt.Sprintf("%08d.pack", seq))
}

// openPacks reads the packs in dir into an index: every live record of
// the older packs by its header, and every record of the newest whole,
// checked against its CRC and cut off at the first that fails after the
// part last synced.
func openPacks(dir string, limit int64) (_ *packs, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p := &packs{dir: dir, limit: limit, index: map[[32]byte]packLoc{}, live: map[uint32]int{},
		readers: map[packLoc]int{}, pending: map[packLoc]bool{}}
	names, err := filepath.Glob(filepath.Join(dir, "*.pack"))
	if err != nil {
		return nil, err
	}
	var seqs []uint32
	for _, name := range names {
		n, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(name), ".pack"), 10, 32)
		if err != nil || p.path(uint32(n)) != name {
			continue // not a pack of ours
		}
		seqs = append(seqs, uint32(n))
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	if p.synced, err = os.OpenFile(filepath.Join(dir, "synced"), os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			p.close()
		}
	}()
	syncedSeq, syncedEnd := p.readSynced()
	if err := checkSynced(seqs, syncedSeq); err != nil {
		return nil, err
	}
	for i, seq := range seqs {
		newest, synced := i == len(seqs)-1, int64(-1) // an older pack: synced whole
		if newest {
			synced = 0
		}
		if seq == syncedSeq {
			synced = syncedEnd
		}
		if err := p.scan(seq, synced, newest); err != nil {
			return nil, fmt.Errorf("blob pack %s: %w", filepath.Base(p.path(seq)), err)
		}
	}
	if len(seqs) > 0 {
		p.activeSeq = seqs[len(seqs)-1]
		f, err := os.OpenFile(p.path(p.activeSeq), os.O_RDWR, 0o600)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err == nil {
			err = f.Sync() // what was checked is on disk before anything is appended
		}
		if err == nil {
			err = p.writeSynced(p.activeSeq, fi.Size())
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		p.active, p.end = f, fi.Size()
	}
	// Only now that the file synced names the newest pack: an older one
	// it named (a crash as the newest was made) may be removed.
	for _, seq := range seqs[:max(len(seqs)-1, 0)] {
		if p.live[seq] == 0 {
			if err := os.Remove(p.path(seq)); err != nil {
				return nil, err
			}
			delete(p.live, seq)
		}
	}
	return p, nil
}

// checkSynced refuses a file synced that names a pack that is not there:
// it names the newest, or the one before it when a crash came as the
// newest was made, or nothing (no pack synced yet, or the file is damaged).
func checkSynced(seqs []uint32, synced uint32) error {
	if synced == 0 {
		return nil
	}
	n := len(seqs)
	if n > 0 && seqs[n-1] == synced || n > 1 && seqs[n-2] == synced && seqs[n-1] == synced+1 {
		return nil
	}
	return fmt.Errorf("blob pack %08d.pack was synced and is missing", synced)
}

// readSynced reads which pack was last synced, and to what size: zeros
// when the file is empty or does not check.
func (p *packs) readSynced() (seq uint32, end int64) {
	var b [16]byte
	if _, err := p.synced.ReadAt(b[:], 0); err != nil || crc32.Checksum(b[:12], castagnoli) != binary.BigEndian.Uint32(b[12:]) {
		return 0, 0
	}
	return binary.BigEndian.Uint32(b[:4]), int64(binary.BigEndian.Uint64(b[4:12]))
}

// writeSynced records, durably, that pack seq is synced up to end: a
// record before end that fails its CRC is damage, not a crash's cut.
func (p *packs) writeSynced(seq uint32, end int64) error {
	var b [16]byte
	binary.BigEndian.PutUint32(b[:4], seq)
	binary.BigEndian.PutUint64(b[4:12], uint64(end))
	binary.BigEndian.PutUint32(b[12:], crc32.Checksum(b[:12], castagnoli))
	if _, err := p.synced.WriteAt(b[:], 0); err != nil {
		return err
	}
	return p.synced.Sync()
}

// scan indexes one pack's live records. A pack was synced up to synced
// bytes (all of it when synced < 0); one shorter than that is damaged. The
// newest pack's records are checked against their CRC, an older one's read
// by their headers. A record that is not whole or fails its CRC after the
// synced bytes of the newest pack is where a crash cut it, and the file is
// cut there; anywhere else it is damage, an error.
func (p *packs) scan(seq uint32, synced int64, newest bool) error {
	f, err := os.OpenFile(p.path(seq), os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < synced {
		return fmt.Errorf("it is %d bytes, and %d were synced", fi.Size(), synced)
	}
	p.live[seq] = 0
	var h [packHeaderSize]byte
	var data []byte
	for off := int64(0); off < fi.Size(); {
		bad := func(why string) error {
			if !newest || synced < 0 || off < synced {
				return fmt.Errorf("the record at %d %s", off, why)
			}
			if err := f.Truncate(off); err != nil {
				return err
			}
			return f.Sync()
		}
		if _, err := f.ReadAt(h[:], off); err != nil {
			return bad("is cut short")
		}
		size := int64(binary.BigEndian.Uint64(h[8:16]))
		if string(h[:4]) != packMagic || size < 0 || size > fi.Size()-off-packHeaderSize {
			return bad("is not a whole record")
		}
		var sum [32]byte
		copy(sum[:], h[16:48])
		loc := packLoc{seq: seq, off: off + packHeaderSize, size: size}
		next := loc.off + size
		switch h[4] {
		case packDeleted:
			off = next
			continue
		case packLive:
		default:
			return bad("has an unknown state")
		}
		if newest {
			if int64(cap(data)) < size {
				data = make([]byte, size)
			}
			data = data[:size]
			if _, err := f.ReadAt(data, loc.off); err != nil {
				return bad("is cut short")
			}
			if recordCRC(h[:], data) != binary.BigEndian.Uint32(h[48:52]) {
				return bad("fails its checksum")
			}
		}
		if old, ok := p.index[sum]; ok && old != loc {
			// Written twice: the first copy goes, as a deletion would.
			if err := p.mark(old); err != nil {
				return err
			}
			if err := p.punchOut(old); err != nil {
				return err
			}
			p.live[old.seq]--
		}
		p.index[sum] = loc
		p.live[seq]++
		off = next
	}
	return nil
}

// recordCRC is a record's CRC-32C: of its header's size and sha256, and
// its bytes.
func recordCRC(header, data []byte) uint32 {
	return crc32.Update(crc32.Checksum(header[8:48], castagnoli), castagnoli, data)
}

// has reports whether a blob is in a pack, with size bytes.
func (p *packs) has(sum [32]byte, size int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	loc, ok := p.index[sum]
	return ok && loc.size == size
}

// append writes a blob at the end of the newest pack, unsynced, starting a
// new pack when that one is full. ok is false once the packs are closed.
func (p *packs) append(sum [32]byte, data []byte) (ok bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false, nil
	}
	if p.broken != nil {
		return true, p.broken
	}
	if _, ok := p.index[sum]; ok {
		return true, nil
	}
	if p.active == nil || p.end >= p.limit {
		if err := p.startPack(); err != nil {
			return true, err
		}
	}
	rec := make([]byte, packHeaderSize, packHeaderSize+len(data))
	copy(rec, packMagic)
	rec[4] = packLive
	binary.BigEndian.PutUint64(rec[8:16], uint64(len(data)))
	copy(rec[16:48], sum[:])
	binary.BigEndian.PutUint32(rec[48:52], recordCRC(rec, data))
	rec = append(rec, data...)
	if _, err := p.active.WriteAt(rec, p.end); err != nil {
		// Whatever part of it is there is cut off when the store opens
		// again: nothing indexes it.
		return true, err
	}
	p.index[sum] = packLoc{seq: p.activeSeq, off: p.end + packHeaderSize, size: int64(len(data))}
	p.live[p.activeSeq]++
	p.end += int64(len(rec))
	p.dirty = true
	return true, nil
}

// startPack syncs the full pack and makes the next one, and its name
// durable. p.mu is held.
func (p *packs) startPack() error {
	seq := p.activeSeq + 1
	if p.active != nil {
		if err := p.active.Sync(); err != nil {
			p.broken = err
			return err
		}
	}
	f, err := os.OpenFile(p.path(seq), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := syncDir(p.dir); err != nil {
		f.Close()
		return err
	}
	if err := p.writeSynced(seq, 0); err != nil {
		f.Close()
		return err
	}
	if p.active != nil {
		old := p.activeSeq
		p.active.Close()
		if p.live[old] == 0 {
			os.Remove(p.path(old))
			delete(p.live, old)
		}
	}
	p.active, p.activeSeq, p.end, p.dirty = f, seq, 0, false
	p.live[seq] = 0
	return nil
}

// sync syncs what was appended since the last sync.
func (p *packs) sync() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return p.broken
	}
	if !p.dirty || p.active == nil {
		return nil
	}
	if err := p.active.Sync(); err != nil {
		p.broken = err
		return err
	}
	if err := p.writeSynced(p.activeSeq, p.end); err != nil {
		return err
	}
	p.dirty = false
	return nil
}

// open opens a blob's bytes in its pack. ok is false when no pack has it.
func (p *packs) open(sum [32]byte) (f *BlobFile, ok bool, err error) {
	p.mu.Lock()
	loc, ok := p.index[sum]
	if ok {
		p.readers[loc]++
	}
	p.mu.Unlock()
	if !ok {
		return nil, false, nil
	}
	file, err := os.Open(p.path(loc.seq))
	if err != nil {
		p.release(loc)
		if errors.Is(err, os.ErrNotExist) {
			return nil, false, nil // deleted, and its pack with it, since the look-up
		}
		return nil, true, err
	}
	return &BlobFile{SectionReader: io.NewSectionReader(file, loc.off, loc.size), file: file, release: func() { p.release(loc) }}, true, nil
}

// release ends a reader of a record; the last reader of one deleted
// meanwhile punches its bytes out.
func (p *packs) release(loc packLoc) {
	p.mu.Lock()
	p.readers[loc]--
	punch := false
	if p.readers[loc] == 0 {
		delete(p.readers, loc)
		punch = p.pending[loc]
		delete(p.pending, loc)
	}
	p.mu.Unlock()
	if punch {
		// A failure leaves the bytes until the pack is removed; the
		// record is deleted either way.
		_ = p.punchOut(loc)
	}
}

// remove deletes a blob from the packs; one no pack has is no error. The
// record is marked deleted, durably, before the index forgets it; then its
// bytes are punched out, at once or when its last reader closes, and a
// pack with no live record left is removed, unless it is appended to.
func (p *packs) remove(sum [32]byte) error {
	p.mu.Lock()
	loc, ok := p.index[sum]
	p.mu.Unlock()
	if !ok {
		return nil
	}
	if err := p.mark(loc); err != nil {
		return err
	}
	p.mu.Lock()
	if cur, ok := p.index[sum]; !ok || cur != loc {
		p.mu.Unlock()
		return nil // removed meanwhile
	}
	delete(p.index, sum)
	p.live[loc.seq]--
	gone := p.live[loc.seq] == 0 && loc.seq != p.activeSeq
	if gone {
		delete(p.live, loc.seq)
	}
	punch := p.readers[loc] == 0
	if !punch {
		p.pending[loc] = true
	}
	p.mu.Unlock()
	if gone {
		// An open reader keeps its file's bytes until it closes.
		return os.Remove(p.path(loc.seq))
	}
	if punch {
		return p.punchOut(loc)
	}
	return nil
}

// mark marks a record deleted, durably. It comes before the bytes are
// taken out, so that no crash leaves a live record of zeros. A pack
// removed meanwhile (its last record deleted by another caller) is no
// error.
func (p *packs) mark(loc packLoc) error {
	f, err := os.OpenFile(p.path(loc.seq), os.O_RDWR, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte{packDeleted}, loc.header()+4); err != nil {
		return err
	}
	return f.Sync()
}

// punchOut takes a deleted record's bytes out of its pack.
func (p *packs) punchOut(loc packLoc) error {
	if loc.size == 0 {
		return nil
	}
	f, err := os.OpenFile(p.path(loc.seq), os.O_RDWR, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		return nil // the pack is gone, and the bytes with its last reader
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if punch(f, loc.off, loc.size) == nil {
		return nil
	}
	// No holes on this file system: zeros, and the space comes back when
	// the pack is removed.
	_, err = f.WriteAt(make([]byte, loc.size), loc.off)
	return err
}

// close syncs and closes the pack appended to; later blobs go to files.
func (p *packs) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	var err error
	if p.active != nil {
		err = p.active.Sync()
		if err == nil {
			err = p.writeSynced(p.activeSeq, p.end)
		}
		if cerr := p.active.Close(); err == nil {
			err = cerr
		}
		p.active = nil
	}
	if cerr := p.synced.Close(); err == nil {
		err = cerr
	}
	return err
}

// BlobFile is an open blob: its own file, or its bytes in a pack.
type BlobFile struct {
	*io.SectionReader
	file    *os.File
	release func() // a pack's record's: ends this reader
}

// Close closes the file the blob is read from.
func (f *BlobFile) Close() error {
	err := f.file.Close()
	if f.release != nil {
		f.release()
		f.release = nil
	}
	return err
}

// sumOf is a hash's bytes; ok is false for a name no blob has.
func sumOf(hash string) (sum [32]byte, ok bool) {
	if len(hash) != 64 {
		return sum, false
	}
	_, err := hex.Decode(sum[:], []byte(hash))
	return sum, err == nil
}
