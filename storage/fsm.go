package storage

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/hashicorp/raft"
)

// Result is what applying one command returns through raft's ApplyFuture.
type Result struct {
	// Err is the reason the command was refused; nothing of it was written.
	Err error
}

// Store is the state database and the raft state machine that alone writes it.
type Store struct {
	db *pebble.DB
	// applied is the raft index of the last command whose batch committed.
	applied atomic.Uint64
	// needsRestore is set when a snapshot restore was cut off: the database was
	// wiped and raft must restore the latest snapshot on start.
	needsRestore bool
	// plans caches the plan catalogue; nil means read it again.
	plans atomic.Pointer[map[string]Plan]
	// deliveryHook is told which endpoints got deliveries to send.
	deliveryHook atomic.Pointer[func(endpointIDs []string)]
	// feedHooks are told which organisations got feed events.
	feedMu    sync.Mutex // serialises OnFeed
	feedHooks atomic.Pointer[[]func(orgIDs []string)]
	// releaseHook is told which blobs lost a reference.
	releaseHook atomic.Pointer[func(hashes []string)]
	// advanced is closed, and replaced, each time the applied index moves.
	advanced atomic.Pointer[chan struct{}]
}

// OnFeed adds a function told, after each batch commits, which
// organisations got change-feed events. It must not block.
func (s *Store) OnFeed(f func(orgIDs []string)) {
	s.feedMu.Lock()
	defer s.feedMu.Unlock()
	var hooks []func([]string)
	if old := s.feedHooks.Load(); old != nil {
		hooks = append(hooks, *old...)
	}
	hooks = append(hooks, f)
	s.feedHooks.Store(&hooks)
}

// releasedPrefix marks, among the ids a batch wakes, a blob that lost a
// reference.
const releasedPrefix = "blob:"

// OnBlobsReleased sets the function told, after each batch commits, which
// blobs lost a reference (a document's file expired). Every node applies
// the batch, so every node can delete its own copy. It must not block.
func (s *Store) OnBlobsReleased(f func(hashes []string)) { s.releaseHook.Store(&f) }

// OnDeliveries sets the function told, after each batch commits, which
// endpoints got webhook deliveries to send or were re-enabled. It must not
// block.
func (s *Store) OnDeliveries(f func(endpointIDs []string)) { s.deliveryHook.Store(&f) }

var _ raft.BatchingFSM = (*Store)(nil)

// OpenStore opens the state database in dir.
func OpenStore(dir string) (*Store, error) {
	db, err := openPebble(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db}
	if _, err := getRaw(db, keyRestoring); err == nil {
		// A restore was interrupted: what is here is a mix. Start empty and let
		// raft restore the snapshot again.
		if err := wipe(db, nil); err != nil {
			db.Close()
			return nil, err
		}
		s.needsRestore = true
	} else if !errors.Is(err, ErrNotFound) {
		db.Close()
		return nil, err
	}
	if raw, err := getRaw(db, keyApplied); err == nil && len(raw) == 8 {
		s.applied.Store(binary.BigEndian.Uint64(raw))
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// AppliedIndex is the raft index of the last applied command.
func (s *Store) AppliedIndex() uint64 { return s.applied.Load() }

// WaitApplied waits until the store has applied index, so that a read here
// sees a write committed elsewhere (DESIGN.md consistency rule 4). It reports
// whether it got there before the timeout.
func (s *Store) WaitApplied(index uint64, timeout time.Duration) bool {
	if s.applied.Load() >= index {
		return true
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		ch := s.advancedCh()
		if s.applied.Load() >= index {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return s.applied.Load() >= index
		}
	}
}

func (s *Store) advancedCh() chan struct{} {
	for {
		if ch := s.advanced.Load(); ch != nil {
			return *ch
		}
		ch := make(chan struct{})
		s.advanced.CompareAndSwap(nil, &ch)
	}
}

func (s *Store) signalAdvanced() {
	if ch := s.advanced.Swap(nil); ch != nil {
		close(*ch)
	}
}

// NeedsSnapshotRestore reports whether raft must restore its latest snapshot
// into this store on start: the store is empty or a restore was cut off. When
// false, the store already holds everything up to AppliedIndex and raft only
// replays the log after it.
func (s *Store) NeedsSnapshotRestore() bool { return s.needsRestore || s.applied.Load() == 0 }

// Apply applies one raft log entry.
func (s *Store) Apply(l *raft.Log) any { return s.ApplyBatch([]*raft.Log{l})[0] }

// ApplyBatch applies committed raft entries in one synced Pebble batch. An
// entry at or below the applied index is a replay after a restart and is
// skipped: its effects are already in the database.
func (s *Store) ApplyBatch(logs []*raft.Log) []any {
	results := make([]any, len(logs))
	done := s.applied.Load()
	last := done
	plansChanged := false
	var woke []string
	b := s.db.NewIndexedBatch()
	defer b.Close()
	for i, l := range logs {
		if l.Index <= done {
			results[i] = Result{}
			continue
		}
		last = l.Index
		if l.Type != raft.LogCommand {
			continue
		}
		cmd, err := DecodeCommand(l.Data)
		if err != nil {
			results[i] = Result{Err: err}
			continue
		}
		err = apply(b, cmd, &woke)
		plansChanged = plansChanged || cmd.Kind == KindSetPlanTerms
		if err != nil && !isRefusal(err) {
			// A read or write of Pebble failed: refusing here would make this
			// replica decide differently from the others. Stop instead; the
			// log replays from the last committed batch on restart.
			panic(fmt.Sprintf("storage: apply index %d: %v", l.Index, err))
		}
		results[i] = Result{Err: err}
	}
	if last == done {
		return results
	}
	if err := b.Set(keyApplied, binary.BigEndian.AppendUint64(nil, last), nil); err != nil {
		panic(fmt.Sprintf("storage: set applied index: %v", err))
	}
	if err := b.Commit(pebble.Sync); err != nil {
		// The state machine cannot go on without its writes: stop the node, and
		// the log replays from the last committed batch on restart.
		panic(fmt.Sprintf("storage: commit batch at index %d: %v", last, err))
	}
	s.applied.Store(last)
	s.signalAdvanced()
	if plansChanged {
		s.plans.Store(nil)
	}
	if len(woke) > 0 {
		var endpoints, orgs, released []string
		for _, id := range woke {
			switch {
			case strings.HasPrefix(id, "org_"):
				orgs = append(orgs, id)
			case strings.HasPrefix(id, releasedPrefix):
				released = append(released, strings.TrimPrefix(id, releasedPrefix))
			default:
				endpoints = append(endpoints, id)
			}
		}
		if hook := s.releaseHook.Load(); hook != nil && len(released) > 0 {
			(*hook)(released)
		}
		if hook := s.deliveryHook.Load(); hook != nil && len(endpoints) > 0 {
			(*hook)(endpoints)
		}
		if hooks := s.feedHooks.Load(); hooks != nil && len(orgs) > 0 {
			for _, hook := range *hooks {
				hook(orgs)
			}
		}
	}
	return results
}

// isRefusal reports whether err is a decision about the command, the same on
// every replica, rather than a failure of this replica's disk.
func isRefusal(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrStale) || errors.Is(err, ErrCodec)
}

// apply checks one command and, if it is accepted, writes all of it to b.
// Checks come before writes, so a refused command leaves b untouched.
func apply(b *pebble.Batch, c *Command, woke *[]string) error {
	if c.Kind == KindSetPlanTerms {
		p := c.SetPlanTerms
		if p.Name == "" || p.MonthlyPages < 0 || p.PageRateMicros < 0 {
			return fmt.Errorf("%w: plan terms", ErrCodec)
		}
		return b.Set(planKey(p.Name), mustEncode(p), nil)
	}
	if c.Kind == KindSetLinkKey {
		if _, err := getRaw(b, keyLinkKey); err == nil {
			return fmt.Errorf("%w: link key already set", ErrConflict)
		}
		if len(c.SetLinkKey.Key) < 32 {
			return fmt.Errorf("%w: link key too short", ErrCodec)
		}
		return b.Set(keyLinkKey, mustEncode(c.SetLinkKey), nil)
	}
	if c.Kind == KindSetOperatorToken {
		if _, err := getRaw(b, keyOperator); err == nil {
			return fmt.Errorf("%w: operator token already set", ErrConflict)
		}
		return b.Set(keyOperator, mustEncode(c.SetOperatorToken), nil)
	}

	if c.Kind == KindUpdateEndpoint || c.Kind == KindRecordAttempt {
		w, err := applyEndpoint(b, c)
		*woke = append(*woke, w...)
		return err
	}
	var org Org
	if err := getRecord(b, orgKey(c.OrgID), &org); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	next := org
	charge, err := applyToOrg(&next, c)
	if err != nil {
		return err
	}
	// Checks beyond the org record, before anything is written.
	var key APIKey
	switch c.Kind {
	case KindCreateKey:
		if _, err := getRaw(b, apiKeyKey(c.CreateKey.Key.ID)); err == nil {
			return fmt.Errorf("%w: key %s exists", ErrConflict, c.CreateKey.Key.ID)
		}
		if _, err := getRaw(b, keyHashKey(c.CreateKey.Key.Hash)); err == nil {
			return fmt.Errorf("%w: key value in use", ErrConflict)
		}
	case KindRevokeKey:
		if err := getRecord(b, apiKeyKey(c.RevokeKey.KeyID), &key); err != nil {
			return err
		}
		if key.OrgID != c.OrgID {
			return fmt.Errorf("%w: key %s", ErrNotFound, c.RevokeKey.KeyID)
		}
	case KindCreditWallet:
		if c.CreditWallet.Reference != "" {
			if _, err := getRaw(b, ledgerRefKey(c.OrgID, c.CreditWallet.Reference)); err == nil {
				return fmt.Errorf("%w: reference %q already used", ErrConflict, c.CreditWallet.Reference)
			}
		}
	}

	var tpl Template
	switch c.Kind {
	case KindCreateTemplate:
		t := c.CreateTemplate.Template
		if t.OrgID != c.OrgID || t.ID == "" || t.Slug == "" {
			return fmt.Errorf("%w: template record does not belong to the command", ErrCodec)
		}
		if _, err := getRaw(b, templateKey(t.ID)); err == nil {
			return fmt.Errorf("%w: template %s exists", ErrConflict, t.ID)
		}
		if _, err := getRaw(b, templateSlugKey(c.OrgID, t.Slug)); err == nil {
			return fmt.Errorf("%w: the slug %q is taken", ErrConflict, t.Slug)
		}
		if v := c.CreateTemplate.Version; v != nil && (v.Number != 1 || v.TemplateID != t.ID) {
			return fmt.Errorf("%w: a new template's first version is 1", ErrConflict)
		}
	case KindSaveVersion, KindActivateVersion, KindUpdateTemplate:
		id := c.templateID()
		if err := getRecord(b, templateKey(id), &tpl); err != nil {
			return err
		}
		if tpl.OrgID != c.OrgID {
			return fmt.Errorf("%w: template %s", ErrNotFound, id)
		}
		switch c.Kind {
		case KindSaveVersion:
			if n := c.SaveVersion.Version.Number; n != tpl.LatestVersion+1 {
				return fmt.Errorf("%w: version %d of %s; the next is %d", ErrConflict, n, id, tpl.LatestVersion+1)
			}
		case KindActivateVersion:
			if _, err := getRaw(b, versionKey(id, c.ActivateVersion.Number)); err != nil {
				return fmt.Errorf("%w: version %d of %s", ErrNotFound, c.ActivateVersion.Number, id)
			}
		case KindUpdateTemplate:
			if u := c.UpdateTemplate; u.Slug != nil && *u.Slug != tpl.Slug {
				if _, err := getRaw(b, templateSlugKey(c.OrgID, *u.Slug)); err == nil {
					return fmt.Errorf("%w: the slug %q is taken", ErrConflict, *u.Slug)
				}
			}
		}
	}

	w := writer{b: b}
	switch c.Kind {
	case KindCreateDocument, KindStartRender, KindCompleteDocument, KindFailDocument, KindRecordDownload, KindExpireDocument:
		// Document commands check their own transition before writing.
		sub := writer{b: b}
		if err := applyDocument(b, &sub, c, &next, charge); err != nil {
			if sub.wrote {
				return fmt.Errorf("storage: document command refused after writing: %w", err)
			}
			return err
		}
		*woke = append(*woke, sub.woke...)
		w.set(orgKey(next.ID), mustEncode(&next))
		return w.err
	case KindCreateEndpoint:
		e := *c.CreateEndpoint
		if e.OrgID != c.OrgID || e.ID == "" {
			return fmt.Errorf("%w: endpoint record does not belong to the command", ErrCodec)
		}
		if _, err := getRaw(b, endpointKey(e.ID)); err == nil {
			return fmt.Errorf("%w: endpoint %s exists", ErrConflict, e.ID)
		}
		e.Version, e.CreatedAt, e.UpdatedAt, e.Enabled = 0, c.At, c.At, true
		w.set(endpointKey(e.ID), mustEncode(&e))
		w.set(append(orgEndpointsPrefix(e.OrgID), e.ID...), nil)
	}
	w.set(orgKey(next.ID), mustEncode(&next))
	switch c.Kind {
	case KindCreateKey:
		k := c.CreateKey.Key
		w.set(apiKeyKey(k.ID), mustEncode(&k))
		w.set(keyHashKey(k.Hash), []byte(k.ID))
		w.set(orgKeyIndex(c.OrgID, k.ID), nil)
	case KindRevokeKey:
		if key.RevokedAt == nil {
			at := c.At
			key.RevokedAt = &at
			w.set(apiKeyKey(key.ID), mustEncode(&key))
			w.delete(keyHashKey(key.Hash))
		}
	case KindCreditWallet:
		entry := LedgerEntry{
			ID: c.CreditWallet.EntryID, OrgID: next.ID, Seq: next.LedgerSeq, Kind: LedgerCredit,
			AmountMicros: c.CreditWallet.AmountMicros, BalanceAfterMicros: next.BalanceMicros,
			Reference: c.CreditWallet.Reference, At: c.At,
		}
		w.set(ledgerKey(next.ID, entry.Seq), mustEncode(&entry))
		if entry.Reference != "" {
			w.set(ledgerRefKey(next.ID, entry.Reference), binary.BigEndian.AppendUint64(nil, entry.Seq))
		}
		w.emit(next.ID, EventWalletCredited, c.CreditWallet.EventID, c.At, walletCreditedData(&next, c))
		*woke = append(*woke, w.woke...)
	case KindCreateTemplate:
		ct := c.CreateTemplate
		t := ct.Template
		t.Kind, t.CreatedAt, t.UpdatedAt, t.ActiveVersion, t.LatestVersion = TemplateWritten, c.At, c.At, 0, 0
		if t.Source != nil {
			// The upload is a blob this template holds for good: templates
			// are archived, never deleted.
			t.Kind = TemplatePDF
			w.set(append(blobRefPrefix(t.Source.BlobHash), t.ID...), nil)
			w.set(templatePiecesKey(t.ID), ct.Pieces)
		}
		if ct.Version != nil {
			v := *ct.Version
			v.CreatedAt = c.At
			t.LatestVersion = 1
			w.set(versionKey(t.ID, 1), mustEncode(&v))
		}
		w.set(templateSlugKey(c.OrgID, t.Slug), []byte(t.ID))
		w.set(orgTemplateKey(c.OrgID, t.ID), nil)
		w.activate(c, &t, 1, ct.EventID)
		w.set(templateKey(t.ID), mustEncode(&t))
		*woke = append(*woke, w.woke...)
	case KindSaveVersion:
		v := c.SaveVersion.Version
		v.CreatedAt = c.At
		tpl.LatestVersion, tpl.UpdatedAt = v.Number, c.At
		w.set(versionKey(tpl.ID, v.Number), mustEncode(&v))
		w.activate(c, &tpl, v.Number, c.SaveVersion.EventID)
		w.set(templateKey(tpl.ID), mustEncode(&tpl))
		*woke = append(*woke, w.woke...)
	case KindActivateVersion:
		tpl.UpdatedAt = c.At
		w.activate(c, &tpl, c.ActivateVersion.Number, c.ActivateVersion.EventID)
		w.set(templateKey(tpl.ID), mustEncode(&tpl))
		*woke = append(*woke, w.woke...)
	case KindUpdateTemplate:
		u := c.UpdateTemplate
		if u.Name != nil {
			tpl.Name = *u.Name
		}
		if u.Description != nil {
			tpl.Description = *u.Description
		}
		if u.Slug != nil && *u.Slug != tpl.Slug {
			w.delete(templateSlugKey(c.OrgID, tpl.Slug))
			tpl.Slug = *u.Slug
			w.set(templateSlugKey(c.OrgID, tpl.Slug), []byte(tpl.ID))
		}
		if u.Archived != nil {
			switch {
			case *u.Archived && tpl.ArchivedAt == nil:
				at := c.At
				tpl.ArchivedAt = &at
			case !*u.Archived:
				tpl.ArchivedAt = nil
			}
		}
		tpl.UpdatedAt = c.At
		w.set(templateKey(tpl.ID), mustEncode(&tpl))
	}
	return w.err
}

// activate makes version n of t active when the command activates, emitting
// template.activated.
func (w *writer) activate(c *Command, t *Template, n int, eventID string) {
	if !c.activates() {
		return
	}
	prev := t.ActiveVersion
	t.ActiveVersion = n
	w.emit(c.OrgID, EventTemplateActivated, eventID, c.At, TemplateActivatedData{TemplateID: t.ID, Slug: t.Slug, Version: n, PreviousVersion: prev})
}

// emit appends an event to the org's change feed at its next sequence number.
// The counter is read through the batch, so several events of one batch
// number on from each other.
func (w *writer) emit(orgID, kind, eventID string, at time.Time, data any) {
	if w.err != nil {
		return
	}
	var seq uint64
	raw, err := getRaw(w.b, feedSeqKey(orgID))
	switch {
	case err == nil && len(raw) == 8:
		seq = binary.BigEndian.Uint64(raw)
	case err != nil && !errors.Is(err, ErrNotFound):
		w.err = err
		return
	}
	seq++
	body, err := json.Marshal(data)
	if err != nil {
		w.err = err
		return
	}
	ev := Event{ID: eventID, OrgID: orgID, Seq: seq, Kind: kind, At: at, Data: body}
	w.set(feedKey(orgID, seq), mustEncode(&ev))
	w.set(feedSeqKey(orgID), binary.BigEndian.AppendUint64(nil, seq))
	w.woke = append(w.woke, orgID)
	w.enqueue(&ev)
}

// writer collects the first error of a run of batch writes.
type writer struct {
	b     *pebble.Batch
	err   error
	wrote bool
	// woke lists endpoints that got deliveries to send, and organisations
	// that got feed events; ApplyBatch tells the hooks after the commit.
	woke []string
}

func (w *writer) deleteRange(prefix []byte) {
	if w.err == nil {
		w.wrote = true
		w.err = w.b.DeleteRange(prefix, prefixEnd(prefix), nil)
	}
}

func (w *writer) set(k, v []byte) {
	if w.err == nil {
		w.wrote = true
		w.err = w.b.Set(k, v, nil)
	}
}

func (w *writer) delete(k []byte) {
	if w.err == nil {
		w.wrote = true
		w.err = w.b.Delete(k, nil)
	}
}

// snapshotMagic starts every snapshot stream; the digit is its format version.
const snapshotMagic = "PLATEN-SNAPSHOT-1\n"

// Snapshot captures the database at the applied index. Persist streams it
// while applies go on.
func (s *Store) Snapshot() (raft.FSMSnapshot, error) {
	return &fsmSnapshot{snap: s.db.NewSnapshot()}, nil
}

type fsmSnapshot struct{ snap *pebble.Snapshot }

// Persist writes every key and value as length-prefixed pairs, ending with a
// zero-length key.
func (f *fsmSnapshot) Persist(sink raft.SnapshotSink) error {
	err := func() error {
		w := bufio.NewWriterSize(sink, 1<<20)
		if _, err := w.WriteString(snapshotMagic); err != nil {
			return err
		}
		it, err := f.snap.NewIter(nil)
		if err != nil {
			return err
		}
		var lenBuf [binary.MaxVarintLen64]byte
		for it.First(); it.Valid(); it.Next() {
			for _, part := range [][]byte{it.Key(), it.Value()} {
				n := binary.PutUvarint(lenBuf[:], uint64(len(part)))
				if _, err := w.Write(lenBuf[:n]); err != nil {
					it.Close()
					return err
				}
				if _, err := w.Write(part); err != nil {
					it.Close()
					return err
				}
			}
		}
		if err := it.Close(); err != nil {
			return err
		}
		if err := w.WriteByte(0); err != nil {
			return err
		}
		return w.Flush()
	}()
	if err != nil {
		sink.Cancel()
		return fmt.Errorf("persist snapshot: %w", err)
	}
	return sink.Close()
}

func (f *fsmSnapshot) Release() { f.snap.Close() }

// Restore replaces the whole database with a snapshot stream. The stream's
// header is checked before anything is touched. A marker key is kept while it
// runs, so a crash in the middle is seen on the next open; a failure after the
// wipe stops the node, which then restores again on start, rather than serve
// from a half-written store.
func (s *Store) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	r := bufio.NewReaderSize(rc, 1<<20)
	magic := make([]byte, len(snapshotMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != snapshotMagic {
		return fmt.Errorf("%w: not a Platen snapshot", ErrCodec)
	}
	if err := s.db.Set(keyRestoring, nil, pebble.Sync); err != nil {
		return err
	}
	s.needsRestore = true
	s.applied.Store(0)
	if err := s.restore(r); err != nil {
		panic(fmt.Sprintf("storage: snapshot restore failed after the store was wiped: %v", err))
	}
	return nil
}

func (s *Store) restore(r *bufio.Reader) error {
	if err := wipe(s.db, keyRestoring); err != nil {
		return err
	}
	b := s.db.NewBatch()
	defer func() { b.Close() }()
	var appliedRaw []byte
	for {
		k, err := readChunk(r)
		if err != nil {
			return fmt.Errorf("%w: snapshot key: %v", ErrCodec, err)
		}
		if len(k) == 0 {
			break
		}
		v, err := readChunk(r)
		if err != nil {
			return fmt.Errorf("%w: snapshot value: %v", ErrCodec, err)
		}
		if bytes.Equal(k, keyApplied) {
			appliedRaw = v
		}
		if err := b.Set(k, v, nil); err != nil {
			return err
		}
		if b.Len() >= 4<<20 {
			if err := b.Commit(pebble.NoSync); err != nil {
				return err
			}
			b.Close()
			b = s.db.NewBatch()
		}
	}
	if len(appliedRaw) != 8 {
		return fmt.Errorf("%w: snapshot has no applied index", ErrCodec)
	}
	applied := binary.BigEndian.Uint64(appliedRaw)
	if err := b.Delete(keyRestoring, nil); err != nil {
		return err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return err
	}
	s.needsRestore = false
	s.applied.Store(applied)
	s.signalAdvanced()
	s.plans.Store(nil)
	return nil
}

func readChunk(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if n > 64<<20 {
		return nil, fmt.Errorf("chunk of %d bytes", n)
	}
	buf := make([]byte, n)
	_, err = io.ReadFull(r, buf)
	return buf, err
}

// wipe deletes every key but keep (when not nil).
func wipe(db *pebble.DB, keep []byte) error {
	all := [2][]byte{{0x00}, {0xff, 0xff, 0xff, 0xff}}
	if keep == nil {
		return db.DeleteRange(all[0], all[1], pebble.Sync)
	}
	if err := db.DeleteRange(all[0], keep, pebble.NoSync); err != nil {
		return err
	}
	return db.DeleteRange(append(append([]byte(nil), keep...), 0), all[1], pebble.Sync)
}
