package storage

// The scans that the reads of every record family share. Reads go straight
// to the local database (docs/design.md "Consistency" rule 4).

import (
	"errors"

	"github.com/cockroachdb/pebble/v2"
)

// newestFirst walks the keys under prefix from the last, starting below
// prefix+cursor when a cursor is given, and calls fn with each key's part
// after the prefix and its value, until fn has taken limit of them. fn says
// whether it took the entry, so filters do not count against the limit.
func (s *Store) newestFirst(prefix []byte, cursor string, limit int, fn func(suffix string, value []byte) (bool, error)) error {
	upper := prefixEnd(prefix)
	if cursor != "" {
		upper = append(append([]byte(nil), prefix...), cursor...)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upper})
	if err != nil {
		return err
	}
	defer it.Close()
	taken := 0
	for it.Last(); it.Valid() && taken < limit; it.Prev() {
		took, err := fn(string(it.Key()[len(prefix):]), it.Value())
		if err != nil {
			return err
		}
		if took {
			taken++
		}
	}
	return nil
}

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

func (s *Store) scan(prefix []byte, limit int, fn func(k, v []byte) error) error {
	return s.scanRange(prefix, prefixEnd(prefix), limit, fn)
}

// decodeRange decodes the records in [lower, upper), in key order, at most
// limit of them (0: no limit).
func decodeRange[T any](s *Store, lower, upper []byte, limit int) ([]T, error) {
	var out []T
	err := s.scanRange(lower, upper, limit, func(_, v []byte) error {
		var rec T
		if err := decode(v, &rec); err != nil {
			return err
		}
		out = append(out, rec)
		return nil
	})
	return out, err
}

// lookupIndex reads the index under prefix, whose keys end in record ids,
// and fetches each record with get, in key order.
func lookupIndex[T any](s *Store, prefix []byte, get func(id string) (T, error)) ([]T, error) {
	var out []T
	err := s.scan(prefix, 0, func(k, _ []byte) error {
		rec, err := get(string(k[len(prefix):]))
		if err != nil {
			return err
		}
		out = append(out, rec)
		return nil
	})
	return out, err
}

// scanRange calls fn for each key in [lower, upper), at most limit times (0: no limit).
func (s *Store) scanRange(lower, upper []byte, limit int, fn func(k, v []byte) error) error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return err
	}
	n := 0
	for it.First(); it.Valid(); it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			it.Close()
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
		n++
		if limit > 0 && n >= limit {
			break
		}
	}
	return it.Close()
}
