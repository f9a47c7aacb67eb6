package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"
)

// Event kinds of the change feed and webhooks (spec "Events").
const (
	EventDocumentCompleted = "document.completed"
	EventDocumentFailed    = "document.failed"
	EventTemplateActivated = "template.activated"
	EventWalletCredited    = "wallet.credited"
	EventWalletDebited     = "wallet.debited"
)

// Event is one entry of an org's change feed, written in the same batch as the
// state change it reports.
type Event struct {
	ID    string          `json:"id"`
	OrgID string          `json:"orgId"`
	Seq   uint64          `json:"seq"`
	Kind  string          `json:"kind"`
	At    time.Time       `json:"at"`
	Data  json.RawMessage `json:"data"`
}

// Keys of the change feed.
//
//	f/<orgID>/<seq>    Event, seq big-endian
//	fq/<orgID>         last feed sequence number used
func feedPrefix(orgID string) []byte { return []byte("f/" + orgID + "/") }
func feedKey(orgID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(feedPrefix(orgID), seq)
}
func feedSeqKey(orgID string) []byte { return []byte("fq/" + orgID) }

// emit appends an event to the org's change feed at its next sequence number,
// with its webhook outbox rows (enqueue), and wakes the org's feed readers.
// The counter is read through the batch, so several events of one batch
// number on from each other.
func (t *txn) emit(orgID, kind, eventID string, at time.Time, data any) {
	if t.err != nil {
		return
	}
	var seq uint64
	raw, err := getRaw(t.b, feedSeqKey(orgID))
	switch {
	case err == nil && len(raw) == 8:
		seq = binary.BigEndian.Uint64(raw)
	case err != nil && !errors.Is(err, ErrNotFound):
		t.err = err
		return
	}
	seq++
	body, err := json.Marshal(data)
	if err != nil {
		t.err = err
		return
	}
	ev := Event{ID: eventID, OrgID: orgID, Seq: seq, Kind: kind, At: at, Data: body}
	t.set(feedKey(orgID, seq), mustEncode(&ev))
	t.set(feedSeqKey(orgID), binary.BigEndian.AppendUint64(nil, seq))
	t.wakes.feeds = append(t.wakes.feeds, orgID)
	t.enqueue(&ev)
}

// Feed returns an organisation's change-feed events after sequence number
// after, oldest first, at most limit of them (0: all).
func (s *Store) Feed(orgID string, after uint64, limit int) ([]Event, error) {
	return decodeRange[Event](s, feedKey(orgID, after+1), prefixEnd(feedPrefix(orgID)), limit)
}

// FeedSeq returns the sequence number of an organisation's latest event.
func (s *Store) FeedSeq(orgID string) uint64 {
	raw, err := getRaw(s.db, feedSeqKey(orgID))
	if err != nil || len(raw) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(raw)
}
