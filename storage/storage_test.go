package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/hashicorp/raft"

	"github.com/platen/platen/internal/ids"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func openTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// applyCmds applies commands at consecutive raft indexes after the store's
// applied index, in one batch, and returns their errors.
func applyCmds(t *testing.T, s *Store, cmds ...*Command) []error {
	t.Helper()
	logs := make([]*raft.Log, len(cmds))
	for i, c := range cmds {
		data, err := EncodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		logs[i] = &raft.Log{Index: s.AppliedIndex() + uint64(i) + 1, Type: raft.LogCommand, Data: data}
	}
	var errs []error
	for _, r := range s.ApplyBatch(logs) {
		errs = append(errs, r.(Result).Err)
	}
	return errs
}

func createOrg(id string) *Command {
	return &Command{Kind: KindCreateOrg, OrgID: id, At: t0, CreateOrg: &CreateOrg{Name: "Acme", Plan: PlanStarter}}
}

func credit(org string, expect uint64, amount int64, ref string) *Command {
	return &Command{Kind: KindCreditWallet, OrgID: org, Expect: expect, At: t0,
		CreditWallet: &CreditWallet{EntryID: "led_" + ref, EventID: "evt_" + ref, AmountMicros: amount, Reference: ref}}
}

func TestApplyChecksVersionAndWritesAtomically(t *testing.T) {
	s := openTestStore(t)
	errs := applyCmds(t, s,
		createOrg("org_a"),
		credit("org_a", 1, 500, "r1"),
		credit("org_a", 1, 700, "r2"), // stale: the org is at version 2 now
		credit("org_a", 2, 300, "r1"), // reference reused
		credit("org_a", 2, 300, "r3"),
		createOrg("org_a"), // exists
	)
	want := []error{nil, nil, ErrStale, ErrConflict, nil, ErrConflict}
	for i := range want {
		if !errors.Is(errs[i], want[i]) || (want[i] == nil && errs[i] != nil) {
			t.Fatalf("command %d: got %v, want %v", i, errs[i], want[i])
		}
	}
	org, err := s.Org("org_a")
	if err != nil {
		t.Fatal(err)
	}
	if org.Version != 3 || org.BalanceMicros != 800 {
		t.Fatalf("org = %+v, want version 3 balance 800", org)
	}
	rows, _ := s.Ledger("org_a", 0)
	var sum int64
	for _, r := range rows {
		sum += r.AmountMicros
	}
	if len(rows) != 2 || sum != org.BalanceMicros || rows[1].BalanceAfterMicros != 800 {
		t.Fatalf("ledger %+v does not add up to balance %d", rows, org.BalanceMicros)
	}
	feed, _ := s.Feed("org_a", 0, 0)
	if len(feed) != 2 || feed[0].Kind != EventWalletCredited || feed[1].Seq != 2 {
		t.Fatalf("feed = %+v", feed)
	}
	after, _ := s.Feed("org_a", 1, 0)
	if len(after) != 1 || after[0].Seq != 2 {
		t.Fatalf("feed after 1 = %+v", after)
	}
	if s.AppliedIndex() != 6 {
		t.Fatalf("applied index %d, want 6", s.AppliedIndex())
	}
}

func TestReplayedEntriesAreSkipped(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	applyCmds(t, s, createOrg("org_a"), credit("org_a", 1, 500, "r1"))
	data, _ := EncodeCommand(credit("org_a", 1, 500, "r1"))
	s.Close()

	s, err = OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.AppliedIndex() != 2 || s.NeedsSnapshotRestore() {
		t.Fatalf("reopened at index %d, needsRestore %v", s.AppliedIndex(), s.NeedsSnapshotRestore())
	}
	// Raft replays index 2 after a restart; it must not credit twice.
	s.ApplyBatch([]*raft.Log{{Index: 2, Type: raft.LogCommand, Data: data}})
	org, _ := s.Org("org_a")
	if org.BalanceMicros != 500 {
		t.Fatalf("balance %d after replay, want 500", org.BalanceMicros)
	}
}

func TestKeysAuthenticateUntilRevoked(t *testing.T) {
	s := openTestStore(t)
	key := APIKey{ID: "key_1", OrgID: "org_a", Name: "ci", Scopes: []string{"templates.read"}, Hash: "abc", CreatedAt: t0}
	errs := applyCmds(t, s, createOrg("org_a"),
		&Command{Kind: KindCreateKey, OrgID: "org_a", Expect: 1, At: t0, CreateKey: &CreateKey{Key: key}},
		&Command{Kind: KindRevokeKey, OrgID: "org_b", Expect: 0, At: t0, RevokeKey: &RevokeKey{KeyID: "key_1"}},
	)
	if errs[1] != nil || !errors.Is(errs[2], ErrNotFound) {
		t.Fatalf("errors %v", errs)
	}
	got, err := s.APIKeyByHash("abc")
	if err != nil || got.ID != "key_1" {
		t.Fatalf("APIKeyByHash = %+v, %v", got, err)
	}
	if errs := applyCmds(t, s, &Command{Kind: KindRevokeKey, OrgID: "org_a", Expect: 2, At: t0, RevokeKey: &RevokeKey{KeyID: "key_1"}}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	if _, err := s.APIKeyByHash("abc"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoked key still authenticates: %v", err)
	}
	keys, _ := s.OrgKeys("org_a")
	if len(keys) != 1 || keys[0].RevokedAt == nil {
		t.Fatalf("org keys %+v", keys)
	}
}

// memSink is a raft.SnapshotSink in memory.
type memSink struct {
	bytes.Buffer
	cancelled bool
}

func (m *memSink) ID() string    { return "mem" }
func (m *memSink) Cancel() error { m.cancelled = true; return nil }
func (m *memSink) Close() error  { return nil }

func TestSnapshotRestoreRoundTrip(t *testing.T) {
	src := openTestStore(t)
	cmds := []*Command{createOrg("org_a")}
	for i := 0; i < 200; i++ {
		cmds = append(cmds, credit("org_a", uint64(i+1), int64(i), "ref"+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	for i, err := range applyCmds(t, src, cmds...) {
		if err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	snap, _ := src.Snapshot()
	var sink memSink
	if err := snap.Persist(&sink); err != nil {
		t.Fatal(err)
	}
	snap.Release()

	dst := openTestStore(t)
	applyCmds(t, dst, createOrg("org_gone")) // restore must replace, not merge
	if err := dst.Restore(io.NopCloser(bytes.NewReader(sink.Bytes()))); err != nil {
		t.Fatal(err)
	}
	if dst.AppliedIndex() != src.AppliedIndex() {
		t.Fatalf("applied %d, want %d", dst.AppliedIndex(), src.AppliedIndex())
	}
	if _, err := dst.Org("org_gone"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("restore kept a key not in the snapshot")
	}
	assertSameDB(t, src, dst)
}

func TestRestoreRefusesGarbageWithoutTouchingTheStore(t *testing.T) {
	s := openTestStore(t)
	applyCmds(t, s, createOrg("org_a"))
	if err := s.Restore(io.NopCloser(bytes.NewReader([]byte("not a snapshot")))); !errors.Is(err, ErrCodec) {
		t.Fatalf("got %v", err)
	}
	if _, err := s.Org("org_a"); err != nil || s.AppliedIndex() != 1 {
		t.Fatalf("a refused snapshot changed the store: %v, applied %d", err, s.AppliedIndex())
	}
}

func TestTruncatedSnapshotStopsTheNode(t *testing.T) {
	src := openTestStore(t)
	applyCmds(t, src, createOrg("org_a"), credit("org_a", 1, 5, "r"))
	snap, _ := src.Snapshot()
	var sink memSink
	snap.Persist(&sink)
	snap.Release()
	dst := openTestStore(t)
	defer func() {
		if recover() == nil {
			t.Fatal("a restore cut off after the wipe went on serving")
		}
		if !dst.NeedsSnapshotRestore() {
			t.Fatal("the store does not say it needs a restore")
		}
	}()
	dst.Restore(io.NopCloser(bytes.NewReader(sink.Bytes()[:sink.Len()-20])))
}

func TestInterruptedRestoreIsWipedOnOpen(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir)
	applyCmds(t, s, createOrg("org_a"))
	// Simulate a crash during Restore: the marker is still there.
	if err := s.db.Set(keyRestoring, nil, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.NeedsSnapshotRestore() || s.AppliedIndex() != 0 {
		t.Fatalf("needsRestore %v applied %d", s.NeedsSnapshotRestore(), s.AppliedIndex())
	}
	if _, err := s.Org("org_a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("half-restored data survived: %v", err)
	}
}

func assertSameDB(t *testing.T, a, b *Store) {
	t.Helper()
	dump := func(s *Store) map[string]string {
		m := map[string]string{}
		s.scanRange([]byte{0}, []byte{0xff}, 0, func(k, v []byte) error {
			m[string(k)] = string(v)
			return nil
		})
		return m
	}
	da, db := dump(a), dump(b)
	if len(da) != len(db) {
		t.Fatalf("%d keys vs %d", len(da), len(db))
	}
	for k, v := range da {
		if db[k] != v {
			t.Fatalf("key %q differs", k)
		}
	}
}

func TestLogStore(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenLogStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	var logs []*raft.Log
	for i := uint64(1); i <= 10; i++ {
		logs = append(logs, &raft.Log{Index: i, Term: 2, Type: raft.LogCommand, Data: []byte{byte(i)}, AppendedAt: t0})
	}
	if err := s.StoreLogs(logs); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRange(1, 3); err != nil {
		t.Fatal(err)
	}
	if err := s.SetUint64([]byte("CurrentTerm"), 7); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = OpenLogStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first, _ := s.FirstIndex()
	last, _ := s.LastIndex()
	if first != 4 || last != 10 {
		t.Fatalf("bounds %d..%d after reopen, want 4..10", first, last)
	}
	var l raft.Log
	if err := s.GetLog(2, &l); !errors.Is(err, raft.ErrLogNotFound) {
		t.Fatalf("deleted entry: %v", err)
	}
	if err := s.GetLog(5, &l); err != nil || l.Term != 2 || l.Data[0] != 5 || !l.AppendedAt.Equal(t0) {
		t.Fatalf("entry 5 = %+v, %v", l, err)
	}
	if term, _ := s.GetUint64([]byte("CurrentTerm")); term != 7 {
		t.Fatalf("term %d", term)
	}
	if v, err := s.Get([]byte("missing")); err == nil || v != nil {
		t.Fatalf("missing stable key: %v %v", v, err)
	}
	if err := s.DeleteRange(20, 30); err != nil { // past the end: nothing changes
		t.Fatal(err)
	}
	if last, _ := s.LastIndex(); last != 10 {
		t.Fatalf("deleting past the end moved the last index to %d", last)
	}
	if err := s.DeleteRange(4, 10); err != nil {
		t.Fatal(err)
	}
	if first, _ := s.FirstIndex(); first != 0 {
		t.Fatalf("emptied log has first %d", first)
	}
}

func TestTemplateVersionsAndActivation(t *testing.T) {
	s := openTestStore(t)
	tpl := Template{ID: "tpl_1", OrgID: "org_a", Slug: "invoice", Name: "Invoice"}
	v1 := &TemplateVersion{TemplateID: "tpl_1", Number: 1, HTML: "one"}
	ver := func(expect uint64, n int, activate bool) *Command {
		return &Command{Kind: KindSaveVersion, OrgID: "org_a", Expect: expect, At: t0,
			SaveVersion: &SaveVersion{Version: TemplateVersion{TemplateID: "tpl_1", Number: n, HTML: fmt.Sprint(n)}, Activate: activate, EventID: fmt.Sprint("evt_v", n)}}
	}
	errs := applyCmds(t, s,
		createOrg("org_a"),
		&Command{Kind: KindCreateTemplate, OrgID: "org_a", Expect: 1, At: t0, CreateTemplate: &CreateTemplate{Template: tpl, Version: v1, Activate: true, EventID: "evt_1"}},
		&Command{Kind: KindCreateTemplate, OrgID: "org_a", Expect: 2, At: t0, CreateTemplate: &CreateTemplate{Template: Template{ID: "tpl_2", OrgID: "org_a", Slug: "invoice"}}},
		ver(2, 2, false),
		ver(3, 2, false), // version 2 exists: versions are immutable
		ver(3, 3, true),
		&Command{Kind: KindActivateVersion, OrgID: "org_a", Expect: 4, At: t0, ActivateVersion: &ActivateVersion{TemplateID: "tpl_1", Number: 9, EventID: "x"}},
		&Command{Kind: KindActivateVersion, OrgID: "org_a", Expect: 4, At: t0, ActivateVersion: &ActivateVersion{TemplateID: "tpl_1", Number: 1, EventID: "evt_a"}},
	)
	want := []error{nil, nil, ErrConflict, nil, ErrConflict, nil, ErrNotFound, nil}
	for i := range want {
		if (want[i] == nil) != (errs[i] == nil) || (want[i] != nil && !errors.Is(errs[i], want[i])) {
			t.Fatalf("command %d: got %v, want %v", i, errs[i], want[i])
		}
	}
	got, _ := s.TemplateBySlug("org_a", "invoice")
	if got.ID != "tpl_1" || got.LatestVersion != 3 || got.ActiveVersion != 1 || got.Kind != TemplateWritten {
		t.Fatalf("template %+v", got)
	}
	if v, _ := s.TemplateVersion("tpl_1", 2); v.HTML != "2" {
		t.Fatalf("version 2 changed: %+v", v)
	}
	feed, _ := s.Feed("org_a", 0, 0)
	if len(feed) != 3 {
		t.Fatalf("%d events, want 3 activations", len(feed))
	}
	var last TemplateActivatedData
	json.Unmarshal(feed[2].Data, &last)
	if feed[2].Kind != EventTemplateActivated || last.Version != 1 || last.PreviousVersion != 3 {
		t.Fatalf("last event %+v %+v", feed[2], last)
	}

	slug, archived := "bill", true
	errs = applyCmds(t, s, &Command{Kind: KindUpdateTemplate, OrgID: "org_a", Expect: 5, At: t0,
		UpdateTemplate: &UpdateTemplate{TemplateID: "tpl_1", Slug: &slug, Archived: &archived}})
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	if _, err := s.TemplateBySlug("org_a", "invoice"); !errors.Is(err, ErrNotFound) {
		t.Fatal("old slug still finds the template")
	}
	if got, _ := s.TemplateBySlug("org_a", "bill"); got.ArchivedAt == nil {
		t.Fatalf("not archived: %+v", got)
	}
	if list, _ := s.OrgTemplates("org_a", "", 10); len(list) != 1 {
		t.Fatalf("list %+v", list)
	}
}

func TestBlobs(t *testing.T) {
	b, err := OpenBlobs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h1, err := b.Put([]byte("%PDF-1 one"))
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := b.Put([]byte("%PDF-1 one"))
	if h1 != h2 || len(h1) != 64 {
		t.Fatalf("hashes %s %s", h1, h2)
	}
	if got, err := b.Read(h1); err != nil || string(got) != "%PDF-1 one" {
		t.Fatalf("read %q %v", got, err)
	}
	os.WriteFile(b.path(h1), []byte("tampered"), 0o600)
	if _, err := b.Read(h1); !errors.Is(err, ErrCodec) {
		t.Fatalf("a blob that does not match its hash was read: %v", err)
	}
	if err := b.Delete(h1); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(h1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted blob: %v", err)
	}
	if _, err := b.Open("../../etc/passwd"); !errors.Is(err, ErrNotFound) {
		t.Fatal("a path outside the store was opened")
	}
}

func TestDocumentLifecycle(t *testing.T) {
	s := openTestStore(t)
	doc := func(id, corr string) *Command {
		return &Command{Kind: KindCreateDocument, OrgID: "org_a", At: t0, CreateDocument: &CreateDocument{
			Document: Document{ID: id, OrgID: "org_a", TemplateID: "tpl_1", TemplateSlug: "inv", TemplateVersion: 2, CorrelationID: corr, Filename: "a.pdf"},
			Data:     json.RawMessage(`{"n":1}`), EventID: "e" + id}}
	}
	change := func(kind Kind, expect uint64, id string, ch DocumentChange) *Command {
		ch.DocumentID = id
		ch.EventID = fmt.Sprint("e", kind, id)
		return &Command{Kind: kind, OrgID: "org_a", Expect: expect, At: t0.Add(time.Second), DocumentChange: &ch}
	}
	c1, c2 := doc("doc_1", "order/7"), doc("doc_2", "")
	c1.Expect, c2.Expect = 1, 2
	exp := t0.Add(time.Hour)
	errs := applyCmds(t, s, createOrg("org_a"), c1, c2,
		change(KindStartRender, 3, "doc_1", DocumentChange{}),
		change(KindCompleteDocument, 4, "doc_1", DocumentChange{PageCount: 3, ByteSize: 100, BlobHash: "h", ExpiresAt: &exp}),
		change(KindFailDocument, 5, "doc_1", DocumentChange{ErrorCode: "X"}), // already completed
		change(KindFailDocument, 5, "doc_2", DocumentChange{ErrorCode: "TEMPLATE_ERROR", Message: "bad"}),
		change(KindStartRender, 6, "doc_2", DocumentChange{}), // failed is final
	)
	want := []error{nil, nil, nil, nil, nil, ErrConflict, nil, ErrConflict}
	for i := range want {
		if (want[i] == nil) != (errs[i] == nil) || (want[i] != nil && !errors.Is(errs[i], want[i])) {
			t.Fatalf("command %d: got %v, want %v", i, errs[i], want[i])
		}
	}
	d1, _ := s.Document("doc_1")
	if d1.Status != StatusCompleted || d1.PageCount != 3 || d1.CompletedAt == nil {
		t.Fatalf("doc_1 %+v", d1)
	}
	if data, _ := s.DocumentData("doc_1"); string(data) != `{"n":1}` {
		t.Fatalf("data %s", data)
	}
	if pending, _ := s.PendingDocuments(); len(pending) != 0 {
		t.Fatalf("pending %+v", pending)
	}
	for _, c := range []struct {
		f    DocumentFilter
		want string
	}{
		{DocumentFilter{}, "doc_2,doc_1"},
		{DocumentFilter{Status: StatusCompleted}, "doc_1"},
		{DocumentFilter{Status: StatusQueued}, ""},
		{DocumentFilter{CorrelationID: "order/7"}, "doc_1"},
		{DocumentFilter{TemplateID: "tpl_1", Status: StatusFailed}, "doc_2"},
	} {
		list, _ := s.Documents("org_a", c.f, "", 10)
		var got []string
		for _, d := range list {
			got = append(got, d.ID)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("filter %+v: %v, want %s", c.f, got, c.want)
		}
	}
	if page, _ := s.Documents("org_a", DocumentFilter{}, "doc_2", 10); len(page) != 1 || page[0].ID != "doc_1" {
		t.Fatalf("after cursor: %+v", page)
	}
	if inUse, _ := s.BlobInUse("h"); !inUse {
		t.Fatal("blob of a completed document not in use")
	}
	if due, _ := s.ExpiringDocuments(exp, 10); len(due) != 1 {
		t.Fatalf("expiring %+v", due)
	}
	var released []string
	s.OnBlobsReleased(func(h []string) { released = append(released, h...) })
	applyCmds(t, s, change(KindExpireDocument, 6, "doc_1", DocumentChange{}))
	if inUse, _ := s.BlobInUse("h"); inUse {
		t.Fatal("expired document still holds its blob")
	}
	if strings.Join(released, ",") != "h" {
		t.Fatalf("released blobs told to the hook: %v", released)
	}
	if d1, _ := s.Document("doc_1"); !d1.FileExpired {
		t.Fatal("not marked expired")
	}
	feed, _ := s.Feed("org_a", 0, 0)
	var kinds []string
	for _, e := range feed {
		kinds = append(kinds, e.Kind)
	}
	if strings.Join(kinds, ",") != "document.queued,document.queued,document.rendering,document.completed,document.failed" {
		t.Fatalf("feed %v", kinds)
	}
}

func TestOutboxIsWrittenWithTheEventAndAttemptsAreRecorded(t *testing.T) {
	s := openTestStore(t)
	var woken []string
	s.OnDeliveries(func(ids []string) { woken = append(woken, ids...) })
	ep := func(id string, events ...string) *Command {
		c := &Command{Kind: KindCreateEndpoint, OrgID: "org_a", At: t0, CreateEndpoint: &Endpoint{ID: id, OrgID: "org_a", URL: "https://x", Events: events}}
		return c
	}
	c1, c2 := ep("whk_all"), ep("whk_docs", EventDocumentCompleted)
	c1.Expect, c2.Expect = 1, 2
	errs := applyCmds(t, s, createOrg("org_a"), c1, c2, credit("org_a", 3, 500, "r1"))
	for i, err := range errs {
		if err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	pending, _ := s.PendingDeliveries("whk_all", 10)
	if len(pending) != 1 || pending[0].Event != EventWalletCredited || pending[0].ID != ids.Derive(ids.Delivery, "evt_r1", "whk_all") {
		t.Fatalf("pending %+v", pending)
	}
	if other, _ := s.PendingDeliveries("whk_docs", 10); len(other) != 0 {
		t.Fatal("an endpoint not subscribed to wallet.credited got a delivery")
	}
	if strings.Join(woken, ",") != "whk_all" {
		t.Fatalf("woken %v", woken)
	}
	attempt := func(version uint64, n int, outcome string) error {
		return applyCmds(t, s, &Command{Kind: KindRecordAttempt, OrgID: "org_a", EndpointID: "whk_all", Expect: version, At: t0,
			RecordAttempt: &RecordAttempt{DeliveryID: pending[0].ID, Number: n, Outcome: outcome, Status: 500, NextAttemptAt: t0.Add(time.Minute)}})[0]
	}
	if err := attempt(0, 2, AttemptRetry); !errors.Is(err, ErrConflict) {
		t.Fatalf("attempt out of order: %v", err)
	}
	if err := attempt(0, 1, AttemptRetry); err != nil {
		t.Fatal(err)
	}
	if err := attempt(0, 2, AttemptRetry); !errors.Is(err, ErrStale) {
		t.Fatalf("stale endpoint version: %v", err)
	}
	d, _ := s.Delivery(pending[0].ID)
	e, _ := s.Endpoint("whk_all")
	if d.Attempts != 1 || d.Status != DeliveryPending || !d.NextAttemptAt.Equal(t0.Add(time.Minute)) || e.ConsecutiveFailures != 1 {
		t.Fatalf("after a retry: %+v %+v", d, e)
	}
	for n := 2; n <= SwitchOffAfter; n++ {
		if err := attempt(uint64(n-1), n, AttemptRetry); err != nil {
			t.Fatal(err)
		}
	}
	e, _ = s.Endpoint("whk_all")
	if e.Enabled || !strings.Contains(e.DisabledReason, "20 consecutive failed attempts; the last: HTTP 500") {
		t.Fatalf("after 20 failures: %+v", e)
	}
	yes := true
	woken = nil
	applyCmds(t, s, &Command{Kind: KindUpdateEndpoint, OrgID: "org_a", EndpointID: "whk_all", Expect: e.Version, At: t0, UpdateEndpoint: &UpdateEndpoint{Enabled: &yes}})
	e, _ = s.Endpoint("whk_all")
	if !e.Enabled || e.ConsecutiveFailures != 0 || e.DisabledReason != "" || len(woken) != 1 {
		t.Fatalf("re-enabled: %+v, woken %v", e, woken)
	}
	if still, _ := s.PendingDeliveries("whk_all", 10); len(still) != 1 {
		t.Fatal("the waiting delivery was lost while the endpoint was off")
	}
	if err := attempt(e.Version, SwitchOffAfter+1, AttemptDelivered); err != nil {
		t.Fatal(err)
	}
	if left, _ := s.PendingDeliveries("whk_all", 10); len(left) != 0 {
		t.Fatal("a delivered delivery is still queued")
	}
}

// TestSettleUsesTheDocumentsOwnHoldFirst: settlements arriving in any order
// charge the wallet only for pages that were held there or are truly beyond
// the allowance.
func TestSettleUsesTheDocumentsOwnHoldFirst(t *testing.T) {
	terms := PlanTerms{MonthlyPages: 2, PageRateMicros: 10, Wallet: true}
	at := t0
	// Two documents hold the allowance, a third holds the wallet.
	o := Org{UsagePeriod: Period(at), HeldPages: 2, HeldMicros: 10, BalanceMicros: 10}
	settle := func(pages int64, h Hold) Charge {
		o.HeldPages -= h.Pages
		o.HeldMicros -= h.Micros
		return Settle(&o, pages, h, terms, at)
	}
	// The wallet-held document finishes first: it must not take the allowance.
	if c := settle(1, Hold{Micros: 10}); c.AllowancePages != 0 || c.WalletPages != 1 || c.Micros != 10 {
		t.Fatalf("wallet-held document: %+v", c)
	}
	for i := 0; i < 2; i++ {
		if c := settle(1, Hold{Pages: 1}); c.AllowancePages != 1 || c.Micros != 0 {
			t.Fatalf("allowance-held document %d: %+v", i, c)
		}
	}
	if o.PagesUsed != 2 || o.BalanceMicros != 0 || o.HeldPages != 0 || o.HeldMicros != 0 {
		t.Fatalf("org after all three: %+v", o)
	}

	// A document longer than its hold takes free allowance, then the wallet.
	o = Org{UsagePeriod: Period(at), BalanceMicros: 100}
	o.HeldPages = 1
	if c := settle(3, Hold{Pages: 1}); c.AllowancePages != 2 || c.WalletPages != 1 || c.Micros != 10 || o.BalanceMicros != 90 {
		t.Fatalf("document over its hold: %+v, org %+v", c, o)
	}
	// A document held on the wallet that settles in a new month uses that
	// month's allowance first.
	o = Org{UsagePeriod: "2026-10", PagesUsed: 2, BalanceMicros: 10}
	if c := Settle(&o, 1, Hold{Micros: 10}, terms, at); c.AllowancePages != 1 || c.Micros != 0 || o.BalanceMicros != 10 {
		t.Fatalf("wallet-held document settling in a new month: %+v, org %+v", c, o)
	}
	// A new month starts the allowance again.
	o = Org{UsagePeriod: "2026-10", PagesUsed: 2}
	if c := Settle(&o, 1, Hold{}, terms, at); c.AllowancePages != 1 || o.PagesUsed != 1 || o.UsagePeriod != Period(at) {
		t.Fatalf("first settlement of a month: %+v, org %+v", c, o)
	}
}

// TestChargeAndTermsKeepTheirJSON: completion commands in the raft log and
// document records carry terms and charges priced by package billing; their
// JSON is what it was before billing had its own package.
func TestChargeAndTermsKeepTheirJSON(t *testing.T) {
	paid := Charge{LedgerEntryID: "led_1"}
	paid.AllowancePages, paid.WalletPages, paid.Micros = 1, 2, 14
	for _, c := range []struct {
		v    any
		want string
	}{
		{PlanTerms{MonthlyPages: 1000, PageRateMicros: 5000, Wallet: true}, `{"monthlyPages":1000,"pageRateMicros":5000,"wallet":true}`},
		{Charge{}, `{"allowancePages":0,"walletPages":0,"micros":0}`},
		{paid, `{"allowancePages":1,"walletPages":2,"micros":14,"ledgerEntryId":"led_1"}`},
		{Settle(&Org{}, 3, Hold{}, PlanTerms{MonthlyPages: 1, PageRateMicros: 7, Wallet: true}, t0), `{"allowancePages":1,"walletPages":2,"micros":14}`},
	} {
		got, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Fatalf("%T: %s, want %s", c.v, got, c.want)
		}
	}
}

// TestHooksAreToldTheirOwnIDs: one batch that emits feed events, queues a
// webhook delivery and releases a blob tells each hook only its own ids.
func TestHooksAreToldTheirOwnIDs(t *testing.T) {
	s := openTestStore(t)
	var feeds, endpoints, released []string
	s.OnFeed(func(ids []string) { feeds = append(feeds, ids...) })
	s.OnDeliveries(func(ids []string) { endpoints = append(endpoints, ids...) })
	s.OnBlobsReleased(func(h []string) { released = append(released, h...) })
	doc := &Command{Kind: KindCreateDocument, OrgID: "org_a", Expect: 2, At: t0, CreateDocument: &CreateDocument{
		Document: Document{ID: "doc_1", OrgID: "org_a", TemplateID: "tpl_1"}, Data: json.RawMessage(`{}`), EventID: "e1"}}
	done := &Command{Kind: KindCompleteDocument, OrgID: "org_a", Expect: 3, At: t0, DocumentChange: &DocumentChange{
		DocumentID: "doc_1", EventID: "e2", PageCount: 1, BlobHash: "h1"}}
	// An endpoint id that looks like an org's must still go to the endpoint hook.
	ep := &Command{Kind: KindCreateEndpoint, OrgID: "org_a", Expect: 1, At: t0, CreateEndpoint: &Endpoint{ID: "org_lookalike", OrgID: "org_a", URL: "https://x"}}
	for i, err := range applyCmds(t, s, createOrg("org_a"), ep, doc, done) {
		if err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	feeds, endpoints, released = nil, nil, nil
	expire := &Command{Kind: KindExpireDocument, OrgID: "org_a", Expect: 5, At: t0, DocumentChange: &DocumentChange{DocumentID: "doc_1"}}
	for i, err := range applyCmds(t, s, credit("org_a", 4, 100, "r1"), expire) {
		if err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	if strings.Join(feeds, ",") != "org_a" || strings.Join(endpoints, ",") != "org_lookalike" || strings.Join(released, ",") != "h1" {
		t.Fatalf("feeds %v, endpoints %v, released %v", feeds, endpoints, released)
	}
}

// TestCrashLosesOnlyWhatTheLogReplays checks the durability rule of
// ApplyBatch: its batches are not synced, so a crash may lose them, and the
// applied index goes back with them, so raft's replay of its (synced) log
// puts them back; and Snapshot syncs first, so a crash never loses what a
// snapshot covers, which raft would not replay.
func TestCrashLosesOnlyWhatTheLogReplays(t *testing.T) {
	fs := vfs.NewCrashableMem()
	s, err := openStore("state", fs)
	if err != nil {
		t.Fatal(err)
	}
	applyCmds(t, s, createOrg("org_a"), credit("org_a", 1, 500, "r1"))
	snap, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	snap.Release()
	covered := s.AppliedIndex()
	applyCmds(t, s, credit("org_a", 2, 300, "r2"))
	afterSnap, _ := EncodeCommand(credit("org_a", 2, 300, "r2"))

	// A crash now keeps only what was synced.
	crashed := fs.CrashClone(vfs.CrashCloneCfg{})
	s.Close()
	s, err = openStore("state", crashed)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.AppliedIndex(); got < covered {
		t.Fatalf("after the crash the state is at index %d, before the snapshot's %d: raft would never replay the difference", got, covered)
	}
	org, err := s.Org("org_a")
	if err != nil || org.BalanceMicros < 500 {
		t.Fatalf("after the crash: org %+v, %v; want the snapshot's credit of 500", org, err)
	}
	// Raft replays the log after the snapshot; the state takes what it lost
	// and skips what it kept.
	s.ApplyBatch([]*raft.Log{{Index: covered + 1, Type: raft.LogCommand, Data: afterSnap}})
	if org, _ = s.Org("org_a"); org.BalanceMicros != 800 {
		t.Fatalf("balance %d after the replay, want 800", org.BalanceMicros)
	}
}
