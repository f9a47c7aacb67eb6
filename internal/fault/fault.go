// Package fault holds the kinds of refusal that domain code returns and the
// transport maps to status codes and error codes in one place
// (transport.statusOf). A refusal that concerns one input field says which.
package fault

import (
	"errors"
	"fmt"
)

// Kinds of refusal. Wrap them with %w; the transport matches with errors.Is.
var (
	// ErrInvalid is a malformed request or a bad parameter.
	ErrInvalid = errors.New("invalid request")
	// ErrPayload is data that does not satisfy a template's schema or fields.
	ErrPayload = errors.New("payload validation failed")
	// ErrNotFound is an id that does not exist for the caller.
	ErrNotFound = errors.New("not found")
	// ErrConflict is a request that clashes with existing state.
	ErrConflict = errors.New("conflict")
	// ErrPaymentRequired is a request that neither allowance nor wallet covers.
	ErrPaymentRequired = errors.New("payment required")
	// ErrTooLarge is an input over its size limit.
	ErrTooLarge = errors.New("too large")
	// ErrOverloaded is a request refused because a bounded queue is full.
	ErrOverloaded = errors.New("overloaded")
	// ErrUnavailable is a request that cannot be served right now, for example
	// while the node has no raft leader.
	ErrUnavailable = errors.New("unavailable")
	// ErrUnauthenticated is a request without a valid credential: no key, no
	// live console session.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden is a caller whose scopes or role do not allow the request.
	ErrForbidden = errors.New("forbidden")
)

// FieldError is a refusal caused by one field of the input.
type FieldError struct {
	Kind  error  // one of the kinds above
	Field string // path of the field, for example items[2].price
	Msg   string // human-readable reason, without the field path
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Unwrap lets errors.Is see the kind.
func (e *FieldError) Unwrap() error { return e.Kind }

// Invalid returns an ErrInvalid refusal of field.
func Invalid(field, format string, args ...any) error {
	return &FieldError{Kind: ErrInvalid, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Conflict returns an ErrConflict refusal of field: a value the request
// may not take because something existing holds it (a slug in use), named
// so that a form shows it at its input.
func Conflict(field, format string, args ...any) error {
	return &FieldError{Kind: ErrConflict, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Payload returns an ErrPayload refusal of field.
func Payload(field, format string, args ...any) error {
	return &FieldError{Kind: ErrPayload, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// RetryAfter is a refusal that the caller may try again after Seconds: a
// full queue, a busy pool, a rate limit. The way in says so (Retry-After).
type RetryAfter struct {
	Err     error
	Seconds int
}

func (r *RetryAfter) Error() string { return r.Err.Error() }

// Unwrap lets errors.Is see the refusal's kind.
func (r *RetryAfter) Unwrap() error { return r.Err }

// Retry marks err as worth retrying after seconds.
func Retry(err error, seconds int) error { return &RetryAfter{Err: err, Seconds: seconds} }

// MaxViolations is how many field errors one refusal lists at most.
const MaxViolations = 50

// Violations is a refusal with several field errors, in the order they were
// found: all of one kind, at most MaxViolations. It reads as its first
// (errors.As finds that *FieldError, so field is the first's, as for a
// single refusal) and lists every one, so that a caller fixes them all in
// one round trip.
type Violations []*FieldError

func (v Violations) Error() string {
	s := v[0].Error()
	if len(v) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(v)-1)
	}
	return s
}

// Unwrap lets errors.Is and errors.As see the first violation.
func (v Violations) Unwrap() error { return v[0] }

// Collect gathers field errors up to MaxViolations. The zero Collect is
// ready; Err is nil when nothing was added.
type Collect struct{ v Violations }

// Add records err if it is a *FieldError, and reports whether there is room
// for more.
func (c *Collect) Add(err error) bool {
	var fe *FieldError
	if errors.As(err, &fe) && len(c.v) < MaxViolations {
		c.v = append(c.v, fe)
	}
	return len(c.v) < MaxViolations
}

// Len is how many were kept.
func (c *Collect) Len() int { return len(c.v) }

// Full reports whether no more will be kept.
func (c *Collect) Full() bool { return len(c.v) >= MaxViolations }

// Err is the violations, or nil.
func (c *Collect) Err() error {
	if len(c.v) == 0 {
		return nil
	}
	return c.v
}
