package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/raft"
)

// recorded is a document's life as three commands and as the one
// RecordDocument that stands for them, on an org with a wallet.
func recorded(pdf []byte) (steps []*Command, one *Command) {
	terms := PlanTerms{PageRateMicros: 1000, Wallet: true}
	d := Document{ID: "doc_1", OrgID: "org_a", TemplateID: "tpl_1", TemplateSlug: "inv", TemplateVersion: 1, Filename: "a.pdf",
		Hold: Hold{Micros: 2000}}
	create := CreateDocument{Document: d, Data: json.RawMessage(`{"n":1}`), EventID: "evt_q", IdempotencyKey: "k", BodyHash: "b"}
	start := DocumentChange{DocumentID: d.ID, Node: "node_1", EventID: "evt_r"}
	exp := t0.Add(time.Hour)
	finish := DocumentChange{DocumentID: d.ID, EventID: "evt_c", PageCount: 2, ByteSize: int64(len(pdf)), BlobHash: BlobHash(pdf),
		ExpiresAt: &exp, Release: d.Hold, Terms: terms, DebitEntryID: "led_d", DebitEventID: "evt_d", RenderedWith: "phantom"}
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	steps = []*Command{
		{Kind: KindCreateDocument, OrgID: "org_a", Expect: 2, At: at(1), CreateDocument: &create},
		{Kind: KindStartRender, OrgID: "org_a", Expect: 3, At: at(2), DocumentChange: &start},
		{Kind: KindCompleteDocument, OrgID: "org_a", Expect: 4, At: at(3), DocumentChange: &finish},
	}
	one = &Command{Kind: KindRecordDocument, OrgID: "org_a", Expect: 2, At: at(3), Blob: pdf, RecordDocument: &RecordDocument{
		Create: create, CreatedAt: at(1), StartedAt: at(2), Start: start, Outcome: KindCompleteDocument, Finish: finish}}
	return steps, one
}

// memBlobs is a BlobWriter in memory.
type memBlobs struct{ put [][]byte }

func (m *memBlobs) PutLater(data []byte) string {
	m.put = append(m.put, data)
	return BlobHash(data)
}
func (m *memBlobs) SyncUnsynced() error { return nil }

// TestRecordDocumentIsItsThreeSteps: one RecordDocument leaves the store
// as its three commands do (the document, its data, its Idempotency-Key,
// the feed's events at their times, the charge and its ledger row, the
// hold released), writes its PDF through the blob writer, and moves the
// org one version.
func TestRecordDocumentIsItsThreeSteps(t *testing.T) {
	pdf := []byte("%PDF-1.7 a small PDF")
	steps, one := recorded(pdf)
	a, b := openTestStore(t), openTestStore(t)
	blobs := &memBlobs{}
	b.SetBlobWriter(blobs)
	for _, s := range []*Store{a, b} {
		applyCmds(t, s, createOrg("org_a"), credit("org_a", 1, 10000, "top"))
	}
	for i, err := range applyCmds(t, a, steps...) {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if err := applyCmds(t, b, one)[0]; err != nil {
		t.Fatal(err)
	}
	if len(blobs.put) != 1 || !bytes.Equal(blobs.put[0], pdf) {
		t.Fatalf("blobs written: %q", blobs.put)
	}
	da, _ := a.Document("doc_1")
	db, _ := b.Document("doc_1")
	ja, _ := json.Marshal(da)
	jb, _ := json.Marshal(db)
	if !bytes.Equal(ja, jb) || db.Status != StatusCompleted || db.Charge.Micros != 2000 {
		t.Fatalf("the document differs:\n three steps %s\n one command %s", ja, jb)
	}
	oa, _ := a.Org("org_a")
	ob, _ := b.Org("org_a")
	if oa.BalanceMicros != ob.BalanceMicros || ob.BalanceMicros != 8000 || ob.HeldMicros != 0 || ob.LedgerSeq != oa.LedgerSeq || ob.Version != 3 {
		t.Fatalf("the org differs: three steps %+v, one command %+v", oa, ob)
	}
	fa, _ := a.Feed("org_a", 0, 0)
	fb, _ := b.Feed("org_a", 0, 0)
	if len(fa) != len(fb) {
		t.Fatalf("feeds: %d and %d events", len(fa), len(fb))
	}
	for i := range fa {
		if fa[i].Kind != fb[i].Kind || fa[i].ID != fb[i].ID || !fa[i].At.Equal(fb[i].At) {
			t.Fatalf("event %d: %+v and %+v", i, fa[i], fb[i])
		}
	}
	if rec, err := b.IdempotencyRecord("org_a", "k"); err != nil || rec.DocumentID != "doc_1" {
		t.Fatalf("idempotency: %+v %v", rec, err)
	}
	if pending, _ := b.PendingDocuments(); len(pending) != 0 {
		t.Fatalf("pending: %+v", pending)
	}
}

// TestRecordDocumentRefusalsWriteNothing: a command whose parts do not make
// one document's life, or whose document or key exists, is refused whole.
func TestRecordDocumentRefusalsWriteNothing(t *testing.T) {
	pdf := []byte("%PDF-1.7 a small PDF")
	for name, spoil := range map[string]func(c *Command){
		"another PDF":         func(c *Command) { c.Blob = []byte("%PDF-1.7 another") },
		"a release not held":  func(c *Command) { c.RecordDocument.Finish.Release = Hold{} },
		"not an outcome":      func(c *Command) { c.RecordDocument.Outcome = KindStartRender },
		"steps out of order":  func(c *Command) { c.RecordDocument.StartedAt = t0 },
		"another document":    func(c *Command) { c.RecordDocument.Start.DocumentID = "doc_2" },
		"a failure with file": func(c *Command) { c.RecordDocument.Outcome = KindFailDocument },
	} {
		t.Run(name, func(t *testing.T) {
			s := openTestStore(t)
			blobs := &memBlobs{}
			s.SetBlobWriter(blobs)
			applyCmds(t, s, createOrg("org_a"), credit("org_a", 1, 10000, "top"))
			_, one := recorded(pdf)
			spoil(one)
			if err := applyCmds(t, s, one)[0]; !errors.Is(err, ErrCodec) {
				t.Fatalf("applied: %v", err)
			}
			if _, err := s.Document("doc_1"); !errors.Is(err, ErrNotFound) || len(blobs.put) != 0 {
				t.Fatalf("a refused command left the document (%v) or %d blobs", err, len(blobs.put))
			}
		})
	}
	// The same document twice: the second is refused, and charges nothing.
	s := openTestStore(t)
	applyCmds(t, s, createOrg("org_a"), credit("org_a", 1, 10000, "top"))
	_, one := recorded(pdf)
	again := *one
	again.Expect = 3
	errs := applyCmds(t, s, one, &again)
	if errs[0] != nil || !errors.Is(errs[1], ErrConflict) {
		t.Fatalf("twice: %v", errs)
	}
	if o, _ := s.Org("org_a"); o.BalanceMicros != 8000 {
		t.Fatalf("charged twice: %+v", o)
	}
}

// TestCommandsCarryTheirBlobAsBytes: a command with a blob is encoded with
// the bytes after its JSON, not in base64, and decodes to the same.
func TestCommandsCarryTheirBlobAsBytes(t *testing.T) {
	pdf := bytes.Repeat([]byte{0, 1, 2, 0xff}, 1000)
	_, one := recorded(pdf)
	data, err := EncodeCommand(one)
	if err != nil {
		t.Fatal(err)
	}
	if !CarriesBlob(data) || !bytes.HasSuffix(data, pdf) {
		t.Fatal("the blob is not after the command")
	}
	back, err := DecodeCommand(data)
	if err != nil || !bytes.Equal(back.Blob, pdf) || back.RecordDocument.Finish.BlobHash != BlobHash(pdf) {
		t.Fatalf("decoded: %v", err)
	}
	for _, cut := range []int{1, 3, len(data) - len(pdf)} {
		if _, err := DecodeCommand(data[:cut]); !errors.Is(err, ErrCodec) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
	plain, _ := EncodeCommand(createOrg("org_a"))
	if CarriesBlob(plain) {
		t.Fatal("a command without a blob is marked as carrying one")
	}
}

// TestRepairBlobsWritesWhatTheLogCarries: a blob whose command is in the
// log and whose file was lost (a power cut before it reached the disk) or
// cut short is written again before raft starts; one in place is left.
func TestRepairBlobsWritesWhatTheLogCarries(t *testing.T) {
	dir := t.TempDir()
	logs, err := OpenLogStore(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	blobs, err := OpenBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	// Four documents' commands in the log; the state has applied the
	// first three (the fourth's file expired, say: the state names it no
	// more).
	state := openTestStore(t)
	state.SetBlobWriter(&memBlobs{})
	applyCmds(t, state, createOrg("org_a"), credit("org_a", 1, 100000, "top"))
	var entries []*raft.Log
	var pdfs [][]byte
	for i := 0; i < 4; i++ {
		pdf := bytes.Repeat([]byte{byte('a' + i)}, 5000+i)
		_, one := recorded(pdf)
		r := one.RecordDocument
		id := fmt.Sprintf("doc_%d", i)
		r.Create.Document.ID, r.Start.DocumentID, r.Finish.DocumentID = id, id, id
		r.Create.IdempotencyKey, one.Expect = "k"+id, uint64(2+i)
		data, _ := EncodeCommand(one)
		entries = append(entries, &raft.Log{Index: uint64(i + 1), Type: raft.LogCommand, Data: data})
		pdfs = append(pdfs, pdf)
		if i < 3 {
			if err := applyCmds(t, state, one)[0]; err != nil {
				t.Fatal(err)
			}
		}
	}
	plain, _ := EncodeCommand(createOrg("org_b"))
	entries = append(entries, &raft.Log{Index: 5, Type: raft.LogCommand, Data: plain})
	if err := logs.StoreLogs(entries); err != nil {
		t.Fatal(err)
	}
	// The first is in place, the second lost, the third cut short.
	if _, err := blobs.PutUnsynced(pdfs[0]); err != nil {
		t.Fatal(err)
	}
	short := blobs.path(BlobHash(pdfs[2]))
	os.MkdirAll(filepath.Dir(short), 0o700)
	os.WriteFile(short, pdfs[2][:100], 0o600)
	n, err := RepairBlobs(logs, blobs, state)
	if err != nil || n != 2 {
		t.Fatalf("repaired %d (%v), want 2", n, err)
	}
	for i, pdf := range pdfs[:3] {
		got, err := blobs.Read(BlobHash(pdf))
		if err != nil || !bytes.Equal(got, pdf) {
			t.Fatalf("blob %d: %v", i, err)
		}
	}
	if _, err := blobs.Read(BlobHash(pdfs[3])); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a blob the state does not name was written again: %v", err)
	}
	if n, err := RepairBlobs(logs, blobs, state); err != nil || n != 0 {
		t.Fatalf("a second repair wrote %d (%v)", n, err)
	}
}

// TestPutLaterIsReadAsSoonAsItReturns: a blob given to the background
// writer is there for every reader the moment PutLater returns, and a
// sync waits for it.
func TestPutLaterIsReadAsSoonAsItReturns(t *testing.T) {
	blobs, err := OpenBlobs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		pdf := bytes.Repeat([]byte{byte(i)}, 20000+i)
		hash := blobs.PutLater(pdf)
		if got, err := blobs.Read(hash); err != nil || !bytes.Equal(got, pdf) {
			t.Fatalf("blob %d read at once: %v", i, err)
		}
	}
	last := blobs.PutLater([]byte("%PDF-1.7 last"))
	if err := blobs.SyncUnsynced(); err != nil {
		t.Fatal(err)
	}
	if !blobs.Has(last, int64(len("%PDF-1.7 last"))) {
		t.Fatal("a sync did not wait for the last blob")
	}
	blobs.mu.Lock()
	left := len(blobs.unsynced) + len(blobs.writing)
	blobs.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d blobs left unsynced or unwritten after a sync", left)
	}
}

// TestARecordedDocumentIsPricedBesideTheOthersHeld: a document held on the
// wallet, recorded while other reservations hold the allowance, is charged
// to the wallet, as a completion is beside pending documents' holds.
func TestARecordedDocumentIsPricedBesideTheOthersHeld(t *testing.T) {
	pdf := []byte("%PDF-1.7 a small PDF")
	for _, c := range []struct {
		others             Hold
		allowance, walletµ int64
	}{
		{Hold{Pages: 2}, 0, 2000}, // the allowance is the others'
		{Hold{}, 2, 0},            // no others: free allowance first
	} {
		s := openTestStore(t)
		applyCmds(t, s, &Command{Kind: KindSetPlanTerms, At: t0, SetPlanTerms: &Plan{Name: PlanStarter, MonthlyPages: 2, PageRateMicros: 1000, Wallet: true}},
			createOrg("org_a"), credit("org_a", 1, 10000, "top"))
		_, one := recorded(pdf)
		one.RecordDocument.Finish.Terms = PlanTerms{MonthlyPages: 2, PageRateMicros: 1000, Wallet: true}
		one.RecordDocument.OthersHeld = c.others
		if err := applyCmds(t, s, one)[0]; err != nil {
			t.Fatal(err)
		}
		d, _ := s.Document("doc_1")
		o, _ := s.Org("org_a")
		if d.Charge.AllowancePages != c.allowance || d.Charge.Micros != c.walletµ || o.HeldPages != 0 || o.HeldMicros != 0 {
			t.Fatalf("beside %+v: charge %+v, org %+v", c.others, d.Charge, o)
		}
	}
}

// cutShortBlob is a blob store holding the first 100 bytes of a PDF's
// file under its name, as a crash leaves the background writer's file; it
// returns the whole PDF and the file's path.
func cutShortBlob(t *testing.T) (*Blobs, []byte, string) {
	t.Helper()
	blobs, err := OpenBlobs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pdf := bytes.Repeat([]byte("%PDF"), 5000)
	p := blobs.path(BlobHash(pdf))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, pdf[:100], 0o600); err != nil {
		t.Fatal(err)
	}
	return blobs, pdf, p
}

// TestPutLaterReplacesACutShortFileWhole: a file a crash cut short is
// not taken for the blob, nor truncated in place under a reader that has
// it open: the blob goes to a pack, once.
func TestPutLaterReplacesACutShortFileWhole(t *testing.T) {
	blobs, pdf, p := cutShortBlob(t)
	hash := BlobHash(pdf)
	reader, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	blobs.PutLater(pdf)
	if got, err := blobs.Read(hash); err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("the cut-short blob was not written again whole: %v", err)
	}
	if old, _ := io.ReadAll(reader); len(old) != 100 {
		t.Fatalf("an open reader of the old file read %d bytes: it was rewritten in place", len(old))
	}
	size := packBytes(t, blobs)
	blobs.PutLater(pdf)
	if err := blobs.SyncUnsynced(); err != nil {
		t.Fatal(err)
	}
	if again := packBytes(t, blobs); again != size {
		t.Fatalf("a whole blob was written again: the packs grew from %d to %d bytes", size, again)
	}
}

// TestLogStoreKeepsEntriesWhole: entries written into one batch, large
// and small, with and without extensions and times, read back as written.
func TestLogStoreKeepsEntriesWhole(t *testing.T) {
	s, err := OpenLogStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	logs := []*raft.Log{
		{Index: 1, Term: 3, Type: raft.LogCommand, Data: bytes.Repeat([]byte{7}, 300_000), Extensions: []byte("ext"), AppendedAt: t0},
		{Index: 2, Term: 3, Type: raft.LogNoop},
		{Index: 3, Term: 4, Type: raft.LogCommand, Data: bytes.Repeat([]byte{9}, 127), Extensions: bytes.Repeat([]byte{1}, 128)},
	}
	if err := s.StoreLogs(logs); err != nil {
		t.Fatal(err)
	}
	for _, want := range logs {
		var got raft.Log
		if err := s.GetLog(want.Index, &got); err != nil {
			t.Fatal(err)
		}
		if got.Index != want.Index || got.Term != want.Term || got.Type != want.Type || !bytes.Equal(got.Data, want.Data) ||
			!bytes.Equal(got.Extensions, want.Extensions) || !got.AppendedAt.Equal(want.AppendedAt) {
			t.Fatalf("entry %d read back as %+v", want.Index, got)
		}
	}
}

// TestPutReplacesACutShortFile: a file the background writer left cut
// short (a crash while it wrote under the blob's own name) is replaced by
// a Put of the same bytes, not taken as stored.
func TestPutReplacesACutShortFile(t *testing.T) {
	blobs, pdf, _ := cutShortBlob(t)
	hash, err := blobs.Put(pdf)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := blobs.Read(hash); err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("a Put over a cut-short file: %v", err)
	}
}
