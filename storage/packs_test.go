package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/raft"
)

// packBytes is the size of all of a store's packs.
func packBytes(t *testing.T, b *Blobs) int64 {
	t.Helper()
	var n int64
	for _, p := range packFiles(t, b.dir) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

func packFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "packs", "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// smallPacks opens a blob store whose packs fill at limit bytes.
func smallPacks(t *testing.T, dir string, limit int64) *Blobs {
	t.Helper()
	b, err := OpenBlobs(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.packs.limit = limit
	t.Cleanup(func() { b.Close() })
	return b
}

// killed leaves a store as a killed process would: every blob written,
// nothing synced since the last sync, the files closed without a sync.
func killed(t *testing.T, b *Blobs) {
	t.Helper()
	b.drain()
	p := b.packs
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.active != nil {
		p.active.Close()
	}
	p.synced.Close()
}

// syncedThenKilled is a store of 4 KB packs holding n blobs, synced, then
// killed; it returns its folder and its packs, at least two.
func syncedThenKilled(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	b := smallPacks(t, dir, 4<<10)
	for _, pdf := range somePDFs(n) {
		b.PutLater(pdf)
	}
	if err := b.SyncUnsynced(); err != nil {
		t.Fatal(err)
	}
	killed(t, b)
	packs := packFiles(t, dir)
	if len(packs) < 2 {
		t.Fatalf("%d packs", len(packs))
	}
	return dir, packs
}

// somePDFs are n distinct blobs of a few kilobytes.
func somePDFs(n int) [][]byte {
	var out [][]byte
	for i := 0; i < n; i++ {
		out = append(out, bytes.Repeat([]byte(fmt.Sprintf("%%PDF-1.7 %d ", i)), 300+37*i))
	}
	return out
}

func mustRead(t *testing.T, b *Blobs, pdf []byte) {
	t.Helper()
	got, err := b.Read(BlobHash(pdf))
	if err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("blob %.12s: %d bytes, %v", pdf, len(got), err)
	}
	f, err := b.Open(BlobHash(pdf))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if streamed, err := io.ReadAll(f); err != nil || !bytes.Equal(streamed, pdf) || f.Size() != int64(len(pdf)) {
		t.Fatalf("blob %.12s streamed %d bytes of %d, %v", pdf, len(streamed), f.Size(), err)
	}
}

// TestPutLaterAppendsToPacks: the background writer makes no file per
// blob; the blobs are read back at once, and after the store opens again,
// from several packs once the first fills.
func TestPutLaterAppendsToPacks(t *testing.T) {
	dir := t.TempDir()
	b := smallPacks(t, dir, 16<<10)
	pdfs := somePDFs(20)
	for _, pdf := range pdfs {
		b.PutLater(pdf)
		mustRead(t, b, pdf)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "packs" {
		t.Fatalf("the blob folder holds %v, want only packs", entries)
	}
	if n := len(packFiles(t, dir)); n < 3 {
		t.Fatalf("%d packs for %d bytes at 16 KB a pack", n, packBytes(t, b))
	}
	again := smallPacks(t, dir, 16<<10)
	for _, pdf := range pdfs {
		mustRead(t, again, pdf)
	}
	if _, err := again.Open(BlobHash([]byte("never stored"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a blob never stored: %v", err)
	}
}

// TestAPackACrashCutShortEndsAtItsLastWholeRecord: the newest pack's
// records are checked when the store opens; the first cut short or
// damaged ends the pack, the blobs before it are kept, and the ones after
// can be written again.
func TestAPackACrashCutShortEndsAtItsLastWholeRecord(t *testing.T) {
	for _, c := range []struct {
		name string
		harm func(t *testing.T, pack string, size int64)
		kept int
	}{
		{"cut inside the last record", func(t *testing.T, pack string, size int64) { os.Truncate(pack, size-10) }, 4},
		{"cut inside the last header", func(t *testing.T, pack string, size int64) {
			os.Truncate(pack, size-int64(len(somePDFs(5)[4]))-20)
		}, 4},
		{"a byte of the third changed", func(t *testing.T, pack string, size int64) {
			f, _ := os.OpenFile(pack, os.O_RDWR, 0)
			defer f.Close()
			off := int64(0)
			for _, pdf := range somePDFs(2) {
				off += packHeaderSize + int64(len(pdf))
			}
			f.WriteAt([]byte{'!'}, off+packHeaderSize+7)
		}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			b := smallPacks(t, dir, packLimit)
			pdfs := somePDFs(5)
			for _, pdf := range pdfs {
				b.PutLater(pdf)
			}
			killed(t, b)
			packs := packFiles(t, dir)
			if len(packs) != 1 {
				t.Fatalf("%d packs", len(packs))
			}
			fi, _ := os.Stat(packs[0])
			c.harm(t, packs[0], fi.Size())

			again := smallPacks(t, dir, packLimit)
			for i, pdf := range pdfs {
				if has := again.Has(BlobHash(pdf), int64(len(pdf))); has != (i < c.kept) {
					t.Fatalf("blob %d: has %v, want the first %d", i, has, c.kept)
				}
			}
			var whole int64
			for _, pdf := range pdfs[:c.kept] {
				whole += packHeaderSize + int64(len(pdf))
			}
			if fi, _ := os.Stat(packs[0]); fi.Size() != whole {
				t.Fatalf("the pack is %d bytes after opening, want %d: cut after its last whole record", fi.Size(), whole)
			}
			for _, pdf := range pdfs[c.kept:] {
				again.PutLater(pdf)
			}
			again.Close()
			third := smallPacks(t, dir, packLimit)
			for _, pdf := range pdfs {
				mustRead(t, third, pdf)
			}
		})
	}
}

// TestRepairBlobsWritesWhatAPackLost: a blob whose record a crash cut off
// the pack is written again from the log, as a lost file is.
func TestRepairBlobsWritesWhatAPackLost(t *testing.T) {
	dir := t.TempDir()
	logs, err := OpenLogStore(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	state := openTestStore(t)
	state.SetBlobWriter(&memBlobs{})
	applyCmds(t, state, createOrg("org_a"), credit("org_a", 1, 100000, "top"))
	pdf := bytes.Repeat([]byte("%PDF lost"), 3000)
	_, one := recorded(pdf)
	if err := applyCmds(t, state, one)[0]; err != nil {
		t.Fatal(err)
	}
	data, _ := EncodeCommand(one)
	if err := logs.StoreLogs([]*raft.Log{{Index: 1, Type: raft.LogCommand, Data: data}}); err != nil {
		t.Fatal(err)
	}
	b := smallPacks(t, filepath.Join(dir, "blobs"), packLimit)
	b.PutLater(pdf)
	killed(t, b)
	pack := packFiles(t, b.dir)[0]
	os.Truncate(pack, packHeaderSize+100)

	again := smallPacks(t, b.dir, packLimit)
	if n, err := RepairBlobs(logs, again, state); err != nil || n != 1 {
		t.Fatalf("repaired %d (%v), want 1", n, err)
	}
	mustRead(t, again, pdf)
}

// TestADeletedPackedBlobLeavesNoBytes: deleting a blob in a pack takes its
// bytes off the disk at once, it stays deleted when the store opens again,
// a pack whose blobs are all deleted is removed, and the same bytes can be
// stored again.
func TestADeletedPackedBlobLeavesNoBytes(t *testing.T) {
	dir := t.TempDir()
	b := smallPacks(t, dir, 8<<10)
	pdfs := somePDFs(8)
	for _, pdf := range pdfs {
		b.PutLater(pdf)
	}
	if err := b.SyncUnsynced(); err != nil {
		t.Fatal(err)
	}
	first := packFiles(t, dir)[0]
	firstPack, _ := os.ReadFile(first)
	var inFirst, elsewhere [][]byte
	for _, pdf := range pdfs {
		if bytes.Contains(firstPack, pdf) {
			inFirst = append(inFirst, pdf)
		} else {
			elsewhere = append(elsewhere, pdf)
		}
	}
	if len(inFirst) == 0 || len(elsewhere) < 2 {
		t.Fatalf("%d blobs in the first pack, %d elsewhere", len(inFirst), len(elsewhere))
	}
	gone := elsewhere[len(elsewhere)-1] // in the pack appended to
	if err := b.Delete(BlobHash(gone)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(BlobHash(gone)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a deleted blob opens: %v", err)
	}
	for _, p := range packFiles(t, dir) {
		if content, _ := os.ReadFile(p); bytes.Contains(content, gone[:200]) {
			t.Fatalf("%s still holds the deleted blob's bytes", filepath.Base(p))
		}
	}
	for _, pdf := range inFirst {
		if err := b.Delete(BlobHash(pdf)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(first); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a pack with no blob left is still there: %v", err)
	}
	b.Close()

	again := smallPacks(t, dir, 8<<10)
	for _, pdf := range append(append([][]byte{}, inFirst...), gone) {
		if again.Has(BlobHash(pdf), int64(len(pdf))) {
			t.Fatalf("a deleted blob %.12s came back", pdf)
		}
	}
	for _, pdf := range elsewhere[:len(elsewhere)-1] {
		mustRead(t, again, pdf)
	}
	again.PutLater(gone)
	mustRead(t, again, gone)
	again.Close()
	mustRead(t, smallPacks(t, dir, 8<<10), gone)
}

// TestADamagedSyncedRecordIsRefused: a record of a pack before the
// newest, or of the part of the newest last synced, reached the disk
// whole, so one that does not check is damage, not a crash: the store
// does not open, and says which pack, rather than drop what follows.
func TestADamagedSyncedRecordIsRefused(t *testing.T) {
	for _, which := range []string{"an older pack", "the newest pack"} {
		t.Run(which, func(t *testing.T) {
			dir, packs := syncedThenKilled(t, 6)
			// An older pack's records are read by their headers, the
			// newest's checked whole.
			damaged, at := packs[0], int64(1)
			if which == "the newest pack" {
				damaged, at = packs[len(packs)-1], packHeaderSize+3
			}
			f, _ := os.OpenFile(damaged, os.O_RDWR, 0)
			f.WriteAt([]byte("!"), at)
			f.Close()
			if _, err := OpenBlobs(dir); err == nil || !strings.Contains(err.Error(), filepath.Base(damaged)) {
				t.Fatalf("a damaged synced record: %v", err)
			}
		})
	}
}

// TestAStrayPackNameIsIgnored: only a pack's own name is read, so a copy
// of a pack under another name does not make its records duplicates of
// themselves.
func TestAStrayPackNameIsIgnored(t *testing.T) {
	dir := t.TempDir()
	b := smallPacks(t, dir, packLimit)
	pdfs := somePDFs(3)
	for _, pdf := range pdfs {
		b.PutLater(pdf)
	}
	b.Close()
	content, _ := os.ReadFile(packFiles(t, dir)[0])
	os.WriteFile(filepath.Join(dir, "packs", "1.pack"), content, 0o600)
	again := smallPacks(t, dir, packLimit)
	for _, pdf := range pdfs {
		mustRead(t, again, pdf)
	}
}

// TestAReaderKeepsADeletedBlobUntilItCloses: a download under way when
// its blob is deleted reads it whole, as an unlinked file's reader does;
// the bytes leave the pack when it closes.
func TestAReaderKeepsADeletedBlobUntilItCloses(t *testing.T) {
	dir := t.TempDir()
	b := smallPacks(t, dir, packLimit)
	pdfs := somePDFs(3)
	for _, pdf := range pdfs {
		b.PutLater(pdf)
	}
	pdf := pdfs[1]
	f, err := b.Open(BlobHash(pdf))
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 10)
	io.ReadFull(f, head)
	if err := b.Delete(BlobHash(pdf)); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(f)
	if got := append(head, rest...); !bytes.Equal(got, pdf) {
		t.Fatalf("a reader open across the delete read %d bytes, not the blob", len(got))
	}
	if content, _ := os.ReadFile(packFiles(t, dir)[0]); !bytes.Contains(content, pdf) {
		t.Fatal("the bytes went while a reader had them open")
	}
	f.Close()
	if content, _ := os.ReadFile(packFiles(t, dir)[0]); bytes.Contains(content, pdf[:200]) {
		t.Fatal("the bytes stayed after the last reader closed")
	}
	mustRead(t, b, pdfs[0])
	mustRead(t, b, pdfs[2])
}

// TestASyncedPackCutShortOrMissingIsRefused: the file synced says how
// much of which pack reached the disk; a pack shorter than that, or gone,
// is damage, and the store does not open rather than lose what it held.
// A crash as a new pack was made (the file still naming the one before)
// opens.
func TestASyncedPackCutShortOrMissingIsRefused(t *testing.T) {
	setUp := func(t *testing.T) (string, []string) { return syncedThenKilled(t, 8) }
	t.Run("the newest cut on a record's edge", func(t *testing.T) {
		dir, packs := setUp(t)
		os.Truncate(packs[len(packs)-1], 0) // no record is cut, but all are gone
		if _, err := OpenBlobs(dir); err == nil || !strings.Contains(err.Error(), "were synced") {
			t.Fatalf("a synced pack cut short: %v", err)
		}
	})
	t.Run("the newest gone", func(t *testing.T) {
		dir, packs := setUp(t)
		os.Remove(packs[len(packs)-1])
		if _, err := OpenBlobs(dir); err == nil || !strings.Contains(err.Error(), "missing") {
			t.Fatalf("a synced pack gone: %v", err)
		}
	})
	t.Run("a crash as the next pack was made", func(t *testing.T) {
		dir, packs := setUp(t)
		next := filepath.Join(dir, "packs", fmt.Sprintf("%08d.pack", len(packs)+1))
		if next == packs[len(packs)-1] {
			t.Fatal("packs are not numbered from 1")
		}
		os.WriteFile(next, nil, 0o600)
		b := smallPacks(t, dir, 4<<10)
		for _, pdf := range somePDFs(8) {
			mustRead(t, b, pdf)
		}
	})
}
