package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/hashicorp/raft"
)

// LogStore is raft's log and stable store on a Pebble database of its own, so
// that compacting the log never touches the state database. Every write is
// synced before it returns: raft counts an entry as persisted when StoreLogs does.
type LogStore struct {
	db *pebble.DB

	mu          sync.Mutex // guards first and last, the cached bounds of the log
	first, last uint64
}

var (
	_ raft.LogStore    = (*LogStore)(nil)
	_ raft.StableStore = (*LogStore)(nil)
)

var (
	logPrefix    = []byte("l/")
	stablePrefix = []byte("s/")
)

func logKey(i uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), logPrefix...), i)
}

// OpenLogStore opens the raft log database in dir.
func OpenLogStore(dir string) (*LogStore, error) {
	db, err := openPebble(dir, nil)
	if err != nil {
		return nil, err
	}
	s := &LogStore{db: db}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: logPrefix, UpperBound: prefixEnd(logPrefix)})
	if err != nil {
		db.Close()
		return nil, err
	}
	if it.First() {
		s.first = binary.BigEndian.Uint64(it.Key()[len(logPrefix):])
	}
	if it.Last() {
		s.last = binary.BigEndian.Uint64(it.Key()[len(logPrefix):])
	}
	if err := it.Close(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *LogStore) Close() error { return s.db.Close() }

// FirstIndex returns the first index written, 0 for an empty log.
func (s *LogStore) FirstIndex() (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first, nil
}

// LastIndex returns the last index written, 0 for an empty log.
func (s *LogStore) LastIndex() (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, nil
}

// GetLog reads the entry at index into l.
func (s *LogStore) GetLog(index uint64, l *raft.Log) error {
	raw, err := getRaw(s.db, logKey(index))
	if errors.Is(err, ErrNotFound) {
		return raft.ErrLogNotFound
	}
	if err != nil {
		return err
	}
	return decodeLog(raw, index, l)
}

// StoreLog writes one entry.
func (s *LogStore) StoreLog(l *raft.Log) error { return s.StoreLogs([]*raft.Log{l}) }

// StoreLogs writes entries in one synced batch.
func (s *LogStore) StoreLogs(logs []*raft.Log) error {
	if len(logs) == 0 {
		return nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	for _, l := range logs {
		// Encoded straight into the batch: an entry can carry a PDF, and a
		// copy of it for every entry is garbage the collector then chases.
		op := b.SetDeferred(len(logPrefix)+8, logSize(l))
		copy(op.Key, logPrefix)
		binary.BigEndian.PutUint64(op.Key[len(logPrefix):], l.Index)
		if out := appendLog(op.Value[:0], l); len(out) != len(op.Value) {
			panic("storage: a raft log entry's size was miscounted")
		}
		if err := op.Finish(); err != nil {
			return err
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("store raft logs: %w", err)
	}
	s.mu.Lock()
	if s.first == 0 || logs[0].Index < s.first {
		s.first = logs[0].Index
	}
	if last := logs[len(logs)-1].Index; last > s.last {
		s.last = last
	}
	s.mu.Unlock()
	return nil
}

// DeleteRange removes entries min through max, inclusive.
func (s *LogStore) DeleteRange(min, max uint64) error {
	if err := s.db.DeleteRange(logKey(min), logKey(max+1), pebble.Sync); err != nil {
		return fmt.Errorf("delete raft logs %d-%d: %w", min, max, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == 0 || max < s.first || min > s.last {
		return nil // no overlap: the bounds stand
	}
	switch {
	case min <= s.first && max >= s.last:
		s.first, s.last = 0, 0
	case min <= s.first:
		s.first = max + 1
	case max >= s.last:
		s.last = min - 1
	}
	return nil
}

// Set stores a stable value.
func (s *LogStore) Set(key, val []byte) error {
	return s.db.Set(append(append([]byte(nil), stablePrefix...), key...), val, pebble.Sync)
}

// Get returns a stable value; raft expects an error containing "not found"
// for a missing key.
func (s *LogStore) Get(key []byte) ([]byte, error) {
	v, err := getRaw(s.db, append(append([]byte(nil), stablePrefix...), key...))
	if errors.Is(err, ErrNotFound) {
		return nil, errors.New("not found")
	}
	return v, err
}

// SetUint64 stores a stable number.
func (s *LogStore) SetUint64(key []byte, val uint64) error {
	return s.Set(key, binary.BigEndian.AppendUint64(nil, val))
}

// GetUint64 returns a stable number, 0 when unset.
func (s *LogStore) GetUint64(key []byte) (uint64, error) {
	v, err := getRaw(s.db, append(append([]byte(nil), stablePrefix...), key...))
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("%w: stable value %q", ErrCodec, key)
	}
	return binary.BigEndian.Uint64(v), nil
}

// Log entry encoding, version 1: version byte, term, type, appended-at unix
// nanoseconds, then data and extensions each as uvarint length and bytes.

// logSize is the length of l encoded.
func logSize(l *raft.Log) int {
	return 1 + 8 + 1 + 8 + uvarintLen(len(l.Data)) + len(l.Data) + uvarintLen(len(l.Extensions)) + len(l.Extensions)
}

func uvarintLen(n int) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], uint64(n))
}

// appendLog appends l encoded to out.
func appendLog(out []byte, l *raft.Log) []byte {
	out = append(out, recordVersion)
	out = binary.BigEndian.AppendUint64(out, l.Term)
	out = append(out, byte(l.Type))
	var at int64
	if !l.AppendedAt.IsZero() {
		at = l.AppendedAt.UnixNano()
	}
	out = binary.BigEndian.AppendUint64(out, uint64(at))
	out = binary.AppendUvarint(out, uint64(len(l.Data)))
	out = append(out, l.Data...)
	out = binary.AppendUvarint(out, uint64(len(l.Extensions)))
	return append(out, l.Extensions...)
}

func decodeLog(b []byte, index uint64, l *raft.Log) error {
	bad := fmt.Errorf("%w: raft log entry %d", ErrCodec, index)
	if len(b) < 18 || b[0] != recordVersion {
		return bad
	}
	l.Index = index
	l.Term = binary.BigEndian.Uint64(b[1:9])
	l.Type = raft.LogType(b[9])
	if at := int64(binary.BigEndian.Uint64(b[10:18])); at != 0 {
		l.AppendedAt = time.Unix(0, at)
	} else {
		l.AppendedAt = time.Time{}
	}
	rest := b[18:]
	var ok bool
	if l.Data, rest, ok = chunk(rest); !ok {
		return bad
	}
	if l.Extensions, _, ok = chunk(rest); !ok {
		return bad
	}
	return nil
}

func chunk(b []byte) (part, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, false
	}
	if n == 0 {
		return nil, b[w:], true
	}
	return append([]byte(nil), b[w:w+int(n)]...), b[w+int(n):], true
}

// RepairBlobs writes again, and syncs, each blob a command in the log
// carries that the blob folder lacks or holds cut short. A blob written by
// applying such a command is not synced until the next snapshot, which the
// log keeps it until (Store.Snapshot), while the state that names it may
// reach the disk first: after a power cut the state can name a blob whose
// file was lost. Run before raft starts, this puts back every such file
// that the state names (a blob whose document's file has expired stays
// gone; one the state does not name yet is written when raft applies its
// entry again). It reports how many it wrote.
func RepairBlobs(logs *LogStore, blobs *Blobs, state *Store) (int, error) {
	it, err := logs.db.NewIter(&pebble.IterOptions{LowerBound: logPrefix, UpperBound: prefixEnd(logPrefix)})
	if err != nil {
		return 0, err
	}
	defer it.Close()
	n := 0
	for it.First(); it.Valid(); it.Next() {
		var l raft.Log
		index := binary.BigEndian.Uint64(it.Key()[len(logPrefix):])
		if err := decodeLog(it.Value(), index, &l); err != nil {
			return n, err
		}
		if l.Type != raft.LogCommand || !CarriesBlob(l.Data) {
			continue
		}
		c, err := DecodeCommand(l.Data)
		if err != nil {
			return n, fmt.Errorf("raft log entry %d: %w", index, err)
		}
		hash := BlobHash(c.Blob)
		if blobs.Has(hash, int64(len(c.Blob))) {
			continue
		}
		if inUse, err := state.BlobInUse(hash); err != nil || !inUse {
			if err != nil {
				return n, err
			}
			continue
		}
		if _, err := blobs.PutUnsynced(c.Blob); err != nil {
			return n, err
		}
		n++
	}
	if err := it.Error(); err != nil {
		return n, err
	}
	if n > 0 {
		return n, blobs.SyncUnsynced()
	}
	return n, nil
}
