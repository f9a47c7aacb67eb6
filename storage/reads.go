package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Org returns an organisation.
func (s *Store) Org(id string) (Org, error) {
	var o Org
	err := getRecord(s.db, orgKey(id), &o)
	return o, err
}

// Orgs returns every organisation, in id order.
func (s *Store) Orgs() ([]Org, error) {
	prefix := []byte("o/")
	return decodeRange[Org](s, prefix, prefixEnd(prefix), 0)
}

// APIKey returns a key record by id.
func (s *Store) APIKey(id string) (APIKey, error) {
	var k APIKey
	err := getRecord(s.db, apiKeyKey(id), &k)
	return k, err
}

// APIKeyByHash returns the live (not revoked) key whose value hashes to hash.
func (s *Store) APIKeyByHash(hash string) (APIKey, error) {
	id, err := getRaw(s.db, keyHashKey(hash))
	if err != nil {
		return APIKey{}, err
	}
	k, err := s.APIKey(string(id))
	if err != nil {
		return APIKey{}, err
	}
	if k.RevokedAt != nil {
		return APIKey{}, ErrNotFound
	}
	return k, nil
}

// OrgKeys returns an organisation's keys, revoked ones included, oldest first.
func (s *Store) OrgKeys(orgID string) ([]APIKey, error) {
	return lookupIndex(s, orgKeysPrefix(orgID), s.APIKey)
}

// Ledger returns an organisation's ledger rows, oldest first; limit 0 means all.
func (s *Store) Ledger(orgID string, limit int) ([]LedgerEntry, error) {
	prefix := ledgerPrefix(orgID)
	return decodeRange[LedgerEntry](s, prefix, prefixEnd(prefix), limit)
}

// LedgerAfter returns an organisation's ledger rows after sequence number
// after, oldest first, at most limit.
func (s *Store) LedgerAfter(orgID string, after uint64, limit int) ([]LedgerEntry, error) {
	return decodeRange[LedgerEntry](s, ledgerKey(orgID, after+1), prefixEnd(ledgerPrefix(orgID)), limit)
}

// LedgerRecent returns an organisation's newest ledger rows, newest first.
func (s *Store) LedgerRecent(orgID string, limit int) ([]LedgerEntry, error) {
	var out []LedgerEntry
	err := s.newestFirst(ledgerPrefix(orgID), "", limit, func(_ string, v []byte) (bool, error) {
		var e LedgerEntry
		if err := decode(v, &e); err != nil {
			return false, err
		}
		out = append(out, e)
		return true, nil
	})
	return out, err
}

// LedgerByReference returns the ledger row written with reference.
func (s *Store) LedgerByReference(orgID, reference string) (LedgerEntry, error) {
	raw, err := getRaw(s.db, ledgerRefKey(orgID, reference))
	if err != nil {
		return LedgerEntry{}, err
	}
	if len(raw) != 8 {
		return LedgerEntry{}, fmt.Errorf("%w: reference index", ErrCodec)
	}
	var e LedgerEntry
	err = getRecord(s.db, ledgerKey(orgID, binary.BigEndian.Uint64(raw)), &e)
	return e, err
}

// Feed returns an organisation's change-feed events after sequence number
// after, oldest first, at most limit of them (0: all).
func (s *Store) Feed(orgID string, after uint64, limit int) ([]Event, error) {
	return decodeRange[Event](s, feedKey(orgID, after+1), prefixEnd(feedPrefix(orgID)), limit)
}

// Template returns a template by id.
func (s *Store) Template(id string) (Template, error) {
	var t Template
	err := getRecord(s.db, templateKey(id), &t)
	return t, err
}

// TemplatePieces returns the text pieces of a TemplatePDF template's
// upload, as JSON.
func (s *Store) TemplatePieces(id string) (json.RawMessage, error) {
	raw, err := getRaw(s.db, templatePiecesKey(id))
	return json.RawMessage(raw), err
}

// TemplateBySlug returns an organisation's template by slug.
func (s *Store) TemplateBySlug(orgID, slug string) (Template, error) {
	id, err := getRaw(s.db, templateSlugKey(orgID, slug))
	if err != nil {
		return Template{}, err
	}
	return s.Template(string(id))
}

// OrgTemplates returns an organisation's templates, newest first, starting
// after the template id cursor (empty: from the newest), at most limit.
func (s *Store) OrgTemplates(orgID, cursor string, limit int) ([]Template, error) {
	var out []Template
	err := s.newestFirst(orgTemplatesPrefix(orgID), cursor, limit, func(id string, _ []byte) (bool, error) {
		t, err := s.Template(id)
		if err != nil {
			return false, err
		}
		out = append(out, t)
		return true, nil
	})
	return out, err
}

// TemplateVersion returns version n of a template.
func (s *Store) TemplateVersion(tplID string, n int) (TemplateVersion, error) {
	var v TemplateVersion
	err := getRecord(s.db, versionKey(tplID, n), &v)
	return v, err
}

// TemplateVersions returns every version of a template, oldest first.
func (s *Store) TemplateVersions(tplID string) ([]TemplateVersion, error) {
	prefix := versionsPrefix(tplID)
	return decodeRange[TemplateVersion](s, prefix, prefixEnd(prefix), 0)
}

// FeedSeq returns the sequence number of an organisation's latest event.
func (s *Store) FeedSeq(orgID string) uint64 {
	raw, err := getRaw(s.db, feedSeqKey(orgID))
	if err != nil || len(raw) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(raw)
}

// OperatorTokenHash returns the stored hash of the operator token.
func (s *Store) OperatorTokenHash() (string, error) {
	var t SetOperatorToken
	if err := getRecord(s.db, keyOperator, &t); err != nil {
		return "", err
	}
	return t.Hash, nil
}

// Plans returns the plan catalogue: DefaultPlans with the operator's terms
// over them. It is kept in memory and rebuilt when the terms change.
func (s *Store) Plans() map[string]Plan {
	if p := s.plans.Load(); p != nil {
		return *p
	}
	return s.loadPlans()
}

// loadPlans reads the catalogue from the database and caches it.
func (s *Store) loadPlans() map[string]Plan {
	plans := DefaultPlans()
	_ = s.scan([]byte("p/"), 0, func(_, v []byte) error {
		var p Plan
		if decode(v, &p) == nil {
			plans[p.Name] = p
		}
		return nil
	})
	s.plans.Store(&plans)
	return plans
}

// LinkKey returns the key that signs download links.
func (s *Store) LinkKey() ([]byte, error) {
	var k SetLinkKey
	if err := getRecord(s.db, keyLinkKey, &k); err != nil {
		return nil, err
	}
	return k.Key, nil
}

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
