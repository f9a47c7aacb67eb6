package storage

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/webhooks"
)

// Endpoint is a webhook endpoint. Its signing secret is stored sealed.
type Endpoint struct {
	ID     string   `json:"id"`
	OrgID  string   `json:"orgId"`
	Name   string   `json:"name"`
	URL    string   `json:"url"`
	Events []string `json:"events"` // empty: every kind
	// SecretSealed is the signing secret, encrypted with the node's seal key.
	SecretSealed []byte `json:"secretSealed"`
	// SecretPrefix is the start of the secret, to tell secrets apart.
	SecretPrefix        string     `json:"secretPrefix"`
	Enabled             bool       `json:"enabled"`
	DisabledReason      string     `json:"disabledReason,omitempty"`
	DisabledAt          *time.Time `json:"disabledAt,omitempty"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	// Version counts the endpoint's commands; a command must carry it.
	Version   uint64    `json:"version"`
	Deleted   bool      `json:"deleted,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Subscribed reports whether the endpoint takes events of kind.
func (e Endpoint) Subscribed(kind string) bool {
	return len(e.Events) == 0 || slices.Contains(e.Events, kind)
}

// WebhookEvents are the kinds a webhook can carry (spec "Events").
var WebhookEvents = []string{EventDocumentCompleted, EventDocumentFailed, EventTemplateActivated, EventWalletCredited, EventWalletDebited}

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// Delivery is one event on its way to one endpoint: the outbox row.
type Delivery struct {
	ID            string          `json:"id"`
	OrgID         string          `json:"orgId"`
	EndpointID    string          `json:"endpointId"`
	EventID       string          `json:"eventId"`
	Event         string          `json:"event"`
	At            time.Time       `json:"at"`
	Data          json.RawMessage `json:"data"`
	Status        string          `json:"status"`
	Attempts      int             `json:"attempts"`
	NextAttemptAt time.Time       `json:"nextAttemptAt"`
	LastStatus    int             `json:"lastStatus,omitempty"`
	LastError     string          `json:"lastError,omitempty"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	DeliveredAt   *time.Time      `json:"deliveredAt,omitempty"`
	// Last is the latest attempt's request and answer, bounded; nil before
	// the first attempt (and for attempts recorded before it was kept).
	Last *webhooks.Exchange `json:"last,omitempty"`
}

// UpdateEndpoint changes an endpoint; nil fields stay. Enabled true
// re-enables it and clears its failure count; Delete removes it and drops
// its undelivered deliveries.
type UpdateEndpoint struct {
	Name    *string   `json:"name,omitempty"`
	URL     *string   `json:"url,omitempty"`
	Events  *[]string `json:"events,omitempty"`
	Enabled *bool     `json:"enabled,omitempty"`
	Delete  bool      `json:"delete,omitempty"`
}

// Attempt outcomes.
const (
	AttemptDelivered = "delivered"
	AttemptRetry     = "retry"
	AttemptFailed    = "failed"
)

// RecordAttempt records one delivery attempt and what follows from it.
type RecordAttempt struct {
	DeliveryID string `json:"deliveryId"`
	// Number is the attempt's number; it must be the delivery's next.
	Number  int    `json:"number"`
	Outcome string `json:"outcome"`
	Status  int    `json:"status"`
	Error   string `json:"error,omitempty"`
	// NextAttemptAt is when to retry, for the retry outcome.
	NextAttemptAt time.Time `json:"nextAttemptAt"`
	// Exchange is what the attempt sent and got, kept as the delivery's Last.
	Exchange *webhooks.Exchange `json:"exchange,omitempty"`
}

// SwitchOffAfter is how many failed attempts in a row switch an endpoint
// off; webhooks.SwitchOffAfter says so.
const SwitchOffAfter = webhooks.SwitchOffAfter

// Keys of webhooks.
//
//	w/<whkID>              Endpoint
//	ow/<orgID>/<whkID>     empty: an org's endpoints
//	dl/<dlvID>             Delivery
//	wq/<whkID>/<dlvID>     empty: the endpoint's undelivered deliveries
//	wd/<whkID>/<dlvID>     empty: all the endpoint's deliveries
func endpointKey(id string) []byte         { return []byte("w/" + id) }
func orgEndpointsPrefix(org string) []byte { return []byte("ow/" + org + "/") }
func deliveryKey(id string) []byte         { return []byte("dl/" + id) }
func queuePrefix(whk string) []byte        { return []byte("wq/" + whk + "/") }
func deliveryLogPrefix(whk string) []byte  { return []byte("wd/" + whk + "/") }

var queueRoot = []byte("wq/")

// enqueue writes an outbox row for every endpoint of the org subscribed to
// the event, in the event's batch, and wakes those endpoints.
func (t *txn) enqueue(ev *Event) {
	if t.err != nil || !slices.Contains(WebhookEvents, ev.Kind) {
		return
	}
	prefix := orgEndpointsPrefix(ev.OrgID)
	it, err := t.b.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		t.err = err
		return
	}
	var endpoints []string
	for it.First(); it.Valid(); it.Next() {
		endpoints = append(endpoints, string(it.Key()[len(prefix):]))
	}
	if err := it.Close(); err != nil {
		t.err = err
		return
	}
	for _, id := range endpoints {
		var e Endpoint
		if err := getRecord(t.b, endpointKey(id), &e); err != nil {
			t.err = err
			return
		}
		if e.Deleted || !e.Subscribed(ev.Kind) {
			continue
		}
		d := Delivery{ID: ids.Derive(ids.Delivery, ev.ID, e.ID), OrgID: ev.OrgID, EndpointID: e.ID, EventID: ev.ID, Event: ev.Kind,
			At: ev.At, Data: ev.Data, Status: DeliveryPending, NextAttemptAt: ev.At, CreatedAt: ev.At, UpdatedAt: ev.At}
		t.set(deliveryKey(d.ID), mustEncode(&d))
		t.set(append(queuePrefix(e.ID), d.ID...), nil)
		t.set(append(deliveryLogPrefix(e.ID), d.ID...), nil)
		t.wakes.endpoints = append(t.wakes.endpoints, e.ID)
	}
}

// applyCreateEndpoint stores a new, enabled endpoint of the command's org.
func applyCreateEndpoint(t *txn, c *Command) error {
	e := *c.CreateEndpoint
	if e.OrgID != c.OrgID || e.ID == "" {
		return fmt.Errorf("%w: endpoint record does not belong to the command", ErrCodec)
	}
	if _, err := getRaw(t.b, endpointKey(e.ID)); err == nil {
		return fmt.Errorf("%w: endpoint %s exists", ErrConflict, e.ID)
	}
	e.Version, e.CreatedAt, e.UpdatedAt, e.Enabled = 0, c.At, c.At, true
	t.set(endpointKey(e.ID), mustEncode(&e))
	t.set(append(orgEndpointsPrefix(e.OrgID), e.ID...), nil)
	return t.err
}

// applyUpdateEndpoint changes an endpoint (t.endpoint, which inEndpoint
// writes back). Re-enabling it wakes it, so its waiting deliveries go out;
// deleting it drops them.
func applyUpdateEndpoint(t *txn, c *Command) error {
	e, u := t.endpoint, c.UpdateEndpoint
	if u.Name != nil {
		e.Name = *u.Name
	}
	if u.URL != nil {
		e.URL = *u.URL
	}
	if u.Events != nil {
		e.Events = *u.Events
	}
	if u.Enabled != nil {
		e.Enabled = *u.Enabled
		if e.Enabled {
			e.ConsecutiveFailures, e.DisabledReason, e.DisabledAt = 0, "", nil
			t.wakes.endpoints = append(t.wakes.endpoints, e.ID)
		} else if e.DisabledAt == nil {
			at := c.At
			e.DisabledReason, e.DisabledAt = "switched off by the organisation", &at
		}
	}
	if u.Delete {
		e.Deleted = true
		t.deleteRange(queuePrefix(e.ID))
		t.delete(append(orgEndpointsPrefix(e.OrgID), e.ID...))
	}
	return t.err
}

// applyRecordAttempt records a delivery attempt, which must be the delivery's
// next, and what follows: delivered, retried later, or failed for good; an
// endpoint failing SwitchOffAfter times in a row is switched off.
func applyRecordAttempt(t *txn, c *Command) error {
	e, a := t.endpoint, c.RecordAttempt
	var d Delivery
	if err := getRecord(t.b, deliveryKey(a.DeliveryID), &d); err != nil {
		return err
	}
	if d.EndpointID != e.ID || d.Status != DeliveryPending || a.Number != d.Attempts+1 {
		return fmt.Errorf("%w: attempt %d of delivery %s (%s after %d attempts)", ErrConflict, a.Number, d.ID, d.Status, d.Attempts)
	}
	d.Attempts, d.LastStatus, d.LastError, d.UpdatedAt = a.Number, a.Status, a.Error, c.At
	if a.Exchange != nil {
		d.Last = a.Exchange
	}
	switch a.Outcome {
	case AttemptDelivered:
		at := c.At
		d.Status, d.DeliveredAt = DeliveryDelivered, &at
		e.ConsecutiveFailures = 0
	case AttemptRetry, AttemptFailed:
		if a.Outcome == AttemptRetry {
			d.NextAttemptAt = a.NextAttemptAt
		} else {
			d.Status = DeliveryFailed
		}
		e.ConsecutiveFailures++
		if e.ConsecutiveFailures >= SwitchOffAfter && e.Enabled {
			at := c.At
			e.Enabled, e.DisabledAt = false, &at
			e.DisabledReason = fmt.Sprintf("switched off after %d consecutive failed attempts; the last: %s", SwitchOffAfter, describeAttempt(a))
		}
	default:
		return fmt.Errorf("%w: attempt outcome %q", ErrCodec, a.Outcome)
	}
	if d.Status != DeliveryPending {
		t.delete(append(queuePrefix(e.ID), d.ID...))
	}
	t.set(deliveryKey(d.ID), mustEncode(&d))
	return t.err
}

func describeAttempt(a *RecordAttempt) string {
	if a.Status == 0 {
		return a.Error
	}
	return fmt.Sprintf("HTTP %d", a.Status)
}

// Endpoint returns a webhook endpoint.
func (s *Store) Endpoint(id string) (Endpoint, error) {
	var e Endpoint
	err := getRecord(s.db, endpointKey(id), &e)
	return e, err
}

// OrgEndpoints returns an organisation's endpoints, oldest first.
func (s *Store) OrgEndpoints(orgID string) ([]Endpoint, error) {
	return lookupIndex(s, orgEndpointsPrefix(orgID), s.Endpoint)
}

// Delivery returns a delivery.
func (s *Store) Delivery(id string) (Delivery, error) {
	var d Delivery
	err := getRecord(s.db, deliveryKey(id), &d)
	return d, err
}

// PendingDeliveries returns an endpoint's undelivered deliveries, oldest first.
func (s *Store) PendingDeliveries(endpointID string, limit int) ([]Delivery, error) {
	var out []Delivery
	prefix := queuePrefix(endpointID)
	err := s.scan(prefix, limit, func(k, _ []byte) error {
		d, err := s.Delivery(string(k[len(prefix):]))
		if err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// NextDue returns an endpoint's first undelivered delivery due at now, in
// creation order; when none is due, the earliest time one will be. It stops
// reading at the first due one.
func (s *Store) NextDue(endpointID string, now time.Time) (due *Delivery, earliest time.Time, err error) {
	prefix := queuePrefix(endpointID)
	err = s.scan(prefix, 0, func(k, _ []byte) error {
		d, err := s.Delivery(string(k[len(prefix):]))
		if err != nil {
			return err
		}
		if !d.NextAttemptAt.After(now) {
			due = &d
			return errStop
		}
		if earliest.IsZero() || d.NextAttemptAt.Before(earliest) {
			earliest = d.NextAttemptAt
		}
		return nil
	})
	return due, earliest, err
}

// Deliveries returns an endpoint's deliveries, newest first, after the
// cursor, at most limit.
func (s *Store) Deliveries(endpointID, cursor string, limit int) ([]Delivery, error) {
	var out []Delivery
	err := s.newestFirst(deliveryLogPrefix(endpointID), cursor, limit, func(id string, _ []byte) (bool, error) {
		d, err := s.Delivery(id)
		if err != nil {
			return false, err
		}
		out = append(out, d)
		return true, nil
	})
	return out, err
}

// EndpointsWithPending returns the ids of endpoints with undelivered deliveries.
func (s *Store) EndpointsWithPending() ([]string, error) {
	var out []string
	err := s.scan(queueRoot, 0, func(k, _ []byte) error {
		rest := string(k[len(queueRoot):])
		if i := indexByte(rest, '/'); i > 0 {
			if id := rest[:i]; len(out) == 0 || out[len(out)-1] != id {
				out = append(out, id)
			}
		}
		return nil
	})
	return out, err
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
