package storage

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/hashicorp/raft"

	"github.com/platen/platen/internal/crash"
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
	// blobs writes the files commands carry (SetBlobWriter).
	blobs atomic.Pointer[BlobWriter]
}

// BlobWriter is where the state machine writes the files commands carry in
// the log (Command.Blob). PutLater need not sync, nor even have written
// the file when it returns (Blobs.PutLater): the log holds the bytes until
// a snapshot, which calls SyncUnsynced first, and a node that starts again
// writes anew what the log holds (RepairBlobs).
type BlobWriter interface {
	PutLater(data []byte) string
	SyncUnsynced() error
}

// SetBlobWriter sets where the files commands carry are written; a store
// without one drops them (a store opened only to read).
func (s *Store) SetBlobWriter(w BlobWriter) { s.blobs.Store(&w) }

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
func OpenStore(dir string) (*Store, error) { return openStore(dir, nil) }

// openStore opens the state database in dir on fs (nil: the disk).
func openStore(dir string, fs vfs.FS) (*Store, error) {
	db, err := openPebble(dir, fs)
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
// sees a write committed elsewhere (docs/design.md "Consistency" rule 4). It reports
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

// ApplyBatch applies committed raft entries in one Pebble batch. An entry at
// or below the applied index is a replay after a restart and is skipped: its
// effects are already in the database.
//
// The batch is not synced: the raft log holds every entry durably before it
// is applied, and the batch carries the applied index, so a batch a crash
// loses is applied again from the log when the node starts (and the node
// serves nothing until it has caught up: cluster.Replicator.Ready). Snapshot
// syncs first, because raft never replays what a snapshot covers. This saves
// a sync of the state's WAL on every batch: about three per document.
func (s *Store) ApplyBatch(logs []*raft.Log) []any {
	results := make([]any, len(logs))
	done := s.applied.Load()
	last := done
	var woke wakes
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
	if len(woke.blobs) > 0 {
		crash.At(crash.Applying)
	}
	if w := s.blobs.Load(); w != nil {
		// Before the batch: a reader of the state waits for the file.
		for _, data := range woke.blobs {
			(*w).PutLater(data)
		}
	}
	if err := b.Set(keyApplied, binary.BigEndian.AppendUint64(nil, last), nil); err != nil {
		panic(fmt.Sprintf("storage: set applied index: %v", err))
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		// The state machine cannot go on without its writes: stop the node, and
		// the log replays from the last committed batch on restart.
		panic(fmt.Sprintf("storage: commit batch at index %d: %v", last, err))
	}
	if woke.plans {
		// Before the index moves, so a reader that waited for it sees the
		// new terms.
		s.plans.Store(nil)
	}
	s.applied.Store(last)
	s.signalAdvanced()
	woke.tell(s)
	return results
}

// isRefusal reports whether err is a decision about the command, the same on
// every replica, rather than a failure of this replica's disk.
func isRefusal(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrStale) || errors.Is(err, ErrCodec) ||
		errors.Is(err, ErrLocked)
}

// appliers holds the one function that applies each kind of command. An
// org-scoped kind's function runs inside inOrg, an endpoint-scoped one's
// inside inEndpoint; the operator's settings belong to no org.
var appliers = map[Kind]func(*txn, *Command) error{
	KindSetOperatorToken: applySetOperatorToken,
	KindSetLinkKey:       applySetLinkKey,
	KindSetPlanTerms:     applySetPlanTerms,

	KindCreateOrg:    inOrg(applyOrgRecord),
	KindSetPlan:      inOrg(applyOrgRecord),
	KindSetRateLimit: inOrg(applyOrgRecord),
	KindCreateKey:    inOrg(applyCreateKey),
	KindRevokeKey:    inOrg(applyRevokeKey),
	KindCreditWallet: inOrg(applyCreditWallet),

	KindCreateTemplate:  inOrg(applyCreateTemplate),
	KindSaveVersion:     inOrg(applySaveVersion),
	KindActivateVersion: inOrg(applyActivateVersion),
	KindUpdateTemplate:  inOrg(applyUpdateTemplate),

	KindCreateDocument:   inOrg(applyCreateDocument),
	KindStartRender:      inOrg(applyStartRender),
	KindCompleteDocument: inOrg(applyCompleteDocument),
	KindFailDocument:     inOrg(applyFailDocument),
	KindRecordDocument:   inOrg(applyRecordDocument),
	KindRecordDownload:   inOrg(applyRecordDownload),
	KindExpireDocument:   inOrg(applyExpireDocument),

	KindCreateEndpoint: inOrg(applyCreateEndpoint),
	KindUpdateEndpoint: inEndpoint(applyUpdateEndpoint),
	KindRecordAttempt:  inEndpoint(applyRecordAttempt),

	KindCreateSigningCertificate: inOrg(applyCreateSigningCertificate),
	KindDeleteSigningCertificate: inOrg(applyDeleteSigningCertificate),

	KindCreateLink:      applyCreateLink,
	KindAcceptLink:      applyAcceptLink,
	KindSignUp:          applySignUp,
	KindStartSession:    applyStartSession,
	KindPasswordAttempt: applyPasswordAttempt,
	KindTouchSession:    applyTouchSession,
	KindEndSessions:     applyEndSessions,
	KindSetPassword:     applySetPassword,
	KindSetRole:         applySetRole,
	KindRemoveMember:    applyRemoveMember,
	KindKeyUsed:         applyKeyUsed,
	KindRevokeLink:      applyRevokeLink,
}

// apply checks one command and, if it is accepted, writes all of it to b and
// adds what it wakes to woke. Every applier checks before it writes, so a
// refused command leaves b untouched.
func apply(b *pebble.Batch, c *Command, woke *wakes) error {
	fn, ok := appliers[c.Kind]
	if !ok {
		return fmt.Errorf("%w: unknown command kind %q", ErrCodec, c.Kind)
	}
	t := txn{b: b}
	if err := fn(&t, c); err != nil {
		if t.wrote {
			return fmt.Errorf("storage: %s refused after writing: %w", c.Kind, err)
		}
		return err
	}
	woke.add(&t.wakes)
	return nil
}

// inOrg wraps the applier of an org-scoped kind with the steps they share:
// load the org, apply the org-record part of the command with ApplyToOrg (its
// version check first), run fn with the org as moved (t.org) and what a
// completion charged (t.charge), and write the org back if fn accepts.
func inOrg(fn func(*txn, *Command) error) func(*txn, *Command) error {
	return func(t *txn, c *Command) error {
		var org Org
		if err := getRecord(t.b, orgKey(c.OrgID), &org); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		charge, err := applyToOrg(&org, c)
		if err != nil {
			return err
		}
		t.org, t.charge = &org, charge
		if err := fn(t, c); err != nil {
			return err
		}
		t.set(orgKey(org.ID), mustEncode(&org))
		return t.err
	}
}

// inEndpoint wraps the applier of an endpoint-scoped kind with the steps they
// share: load the endpoint, which must be the org's and not deleted, check
// the command carries its version, run fn with it (t.endpoint), and write it
// back, one version on, if fn accepts.
func inEndpoint(fn func(*txn, *Command) error) func(*txn, *Command) error {
	return func(t *txn, c *Command) error {
		var e Endpoint
		if err := getRecord(t.b, endpointKey(c.EndpointID), &e); err != nil {
			return err
		}
		if e.OrgID != c.OrgID || e.Deleted {
			return fmt.Errorf("%w: endpoint %s", ErrNotFound, c.EndpointID)
		}
		if e.Version != c.Expect {
			return fmt.Errorf("%w: endpoint %s at version %d, command expects %d", ErrStale, e.ID, e.Version, c.Expect)
		}
		t.endpoint = &e
		if err := fn(t, c); err != nil {
			return err
		}
		e.Version++
		e.UpdatedAt = c.At
		t.set(endpointKey(e.ID), mustEncode(&e))
		return t.err
	}
}

// txn is one command being applied: its reads and writes go through the
// batch, and it keeps the first write error and what the command wakes.
type txn struct {
	b     *pebble.Batch
	err   error
	wrote bool
	wakes wakes
	// org is an org-scoped command's org, as ApplyToOrg moved it; charge is
	// what ApplyToOrg charged for a completion.
	org    *Org
	charge Charge
	// endpoint is an endpoint-scoped command's endpoint.
	endpoint *Endpoint
}

func (t *txn) set(k, v []byte) {
	if t.err == nil {
		t.wrote = true
		t.err = t.b.Set(k, v, nil)
	}
}

func (t *txn) delete(k []byte) {
	if t.err == nil {
		t.wrote = true
		t.err = t.b.Delete(k, nil)
	}
}

func (t *txn) deleteRange(prefix []byte) {
	if t.err == nil {
		t.wrote = true
		t.err = t.b.DeleteRange(prefix, prefixEnd(prefix), nil)
	}
}

// wakes is what a batch's commands tell the Store's hooks once it commits.
type wakes struct {
	// feeds are organisations whose change feed got events (OnFeed).
	feeds []string
	// endpoints are webhook endpoints with deliveries to send, or re-enabled
	// (OnDeliveries).
	endpoints []string
	// released are blobs that lost a reference (OnBlobsReleased).
	released []string
	// plans is set when a plan's terms changed: the cached catalogue goes.
	plans bool
	// blobs are files commands carried (Command.Blob), written to the blob
	// folder before the batch commits.
	blobs [][]byte
}

func (w *wakes) add(o *wakes) {
	w.feeds = append(w.feeds, o.feeds...)
	w.endpoints = append(w.endpoints, o.endpoints...)
	w.released = append(w.released, o.released...)
	w.plans = w.plans || o.plans
	w.blobs = append(w.blobs, o.blobs...)
}

// tell calls each hook of s with its own list.
func (w *wakes) tell(s *Store) {
	if hook := s.releaseHook.Load(); hook != nil && len(w.released) > 0 {
		(*hook)(w.released)
	}
	if hook := s.deliveryHook.Load(); hook != nil && len(w.endpoints) > 0 {
		(*hook)(w.endpoints)
	}
	if hooks := s.feedHooks.Load(); hooks != nil && len(w.feeds) > 0 {
		for _, hook := range *hooks {
			hook(w.feeds)
		}
	}
}

// snapshotMagic starts every snapshot stream; the digit is its format version.
const snapshotMagic = "PLATEN-SNAPSHOT-1\n"

// Snapshot captures the database at the applied index. Persist streams it
// while applies go on. It first syncs the WAL, so that every batch up to
// that index is on disk: once the snapshot is taken, raft starts the node
// from the snapshot's index and never replays the entries before it (and
// compacts them away), so a batch ApplyBatch left unsynced would be lost.
func (s *Store) Snapshot() (raft.FSMSnapshot, error) {
	if w := s.blobs.Load(); w != nil {
		// The blobs the log carried, too: their entries go with the log.
		if err := (*w).SyncUnsynced(); err != nil {
			return nil, fmt.Errorf("sync the blobs before a snapshot: %w", err)
		}
	}
	if err := s.db.LogData(nil, pebble.Sync); err != nil {
		return nil, fmt.Errorf("sync the state before a snapshot: %w", err)
	}
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
