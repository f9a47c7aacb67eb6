package storage

import (
	"errors"

	"github.com/platen/platen/internal/fault"
)

// ErrNotFound is returned when a record does not exist. It is
// fault.ErrNotFound itself: one kind for "no such thing" from the store to
// the answer.
var ErrNotFound = fault.ErrNotFound

// ErrStale is returned when a command carries an org version other than the
// stored one: its proposer decided on out-of-date state and must reload.
var ErrStale = errors.New("stale org version")

// ErrConflict is returned when a command would break a uniqueness rule, such as
// creating an organisation that exists or reusing a ledger reference. It is
// fault.ErrConflict itself.
var ErrConflict = fault.ErrConflict

// ErrCodec is returned when a stored record or command cannot be decoded.
var ErrCodec = errors.New("codec")

func init() {
	// The names these kinds crossed under before they were fault's own:
	// a node of the previous release reads them still.
	fault.Register("storage.not_found", ErrNotFound)
	fault.Register("storage.conflict", ErrConflict)
	fault.Register("storage.stale", ErrStale)
	fault.Register("storage.codec", ErrCodec)
	fault.Register("storage.locked", ErrLocked)
}
