package fault

import (
	"errors"
	"sort"
	"sync"
)

// Errors cross between nodes as text plus the names of the kinds they match,
// so errors.Is answers the same on the node that asked as on the node that
// decided. Each package registers the kinds of its own that may cross.

var (
	wireMu    sync.RWMutex
	wireKinds = map[string]error{}
)

func init() {
	Register("invalid", ErrInvalid)
	Register("payload", ErrPayload)
	Register("not_found", ErrNotFound)
	Register("conflict", ErrConflict)
	Register("payment_required", ErrPaymentRequired)
	Register("too_large", ErrTooLarge)
	Register("overloaded", ErrOverloaded)
	Register("unavailable", ErrUnavailable)
	Register("unauthenticated", ErrUnauthenticated)
	Register("forbidden", ErrForbidden)
}

// Register names a kind of error so that it survives the trip between nodes.
// Names are global; registering one twice panics.
func Register(name string, kind error) {
	wireMu.Lock()
	defer wireMu.Unlock()
	if _, dup := wireKinds[name]; dup {
		panic("fault: kind registered twice: " + name)
	}
	wireKinds[name] = kind
}

// Wire is an error as it travels between nodes. The zero Wire is no error.
type Wire struct {
	Message string   `json:"message,omitempty"`
	Kinds   []string `json:"kinds,omitempty"`
	Field   string   `json:"field,omitempty"`
	// FieldMsg is the reason of a FieldError, without its field path.
	FieldMsg string `json:"fieldMsg,omitempty"`
	// Violations are a Violations' field errors, all of them (the first
	// is also Field and FieldMsg), so that one violation stays a list.
	Violations []WireField `json:"violations,omitempty"`
}

// WireField is one field error of a Violations.
type WireField struct {
	Field string `json:"field"`
	Msg   string `json:"msg"`
}

// ToWire encodes err; nil encodes as the zero Wire.
func ToWire(err error) Wire {
	if err == nil {
		return Wire{}
	}
	w := Wire{Message: err.Error()}
	wireMu.RLock()
	for name, kind := range wireKinds {
		if errors.Is(err, kind) {
			w.Kinds = append(w.Kinds, name)
		}
	}
	wireMu.RUnlock()
	sort.Strings(w.Kinds)
	var fe *FieldError
	if errors.As(err, &fe) {
		w.Field, w.FieldMsg = fe.Field, fe.Msg
	}
	var vs Violations
	if errors.As(err, &vs) {
		for _, v := range vs {
			w.Violations = append(w.Violations, WireField{Field: v.Field, Msg: v.Msg})
		}
	}
	if w.Message == "" {
		w.Message = "error"
	}
	return w
}

// Err decodes w: nil for the zero Wire, else an error with the same text that
// matches the same registered kinds (and is a FieldError when it was one).
func (w Wire) Err() error {
	if w.Message == "" {
		return nil
	}
	e := &remoteError{msg: w.Message}
	wireMu.RLock()
	for _, name := range w.Kinds {
		if kind, ok := wireKinds[name]; ok {
			e.kinds = append(e.kinds, kind)
		}
	}
	wireMu.RUnlock()
	if w.Field == "" {
		return e
	}
	// The text of the whole, and under it the field error with the kinds.
	kind := &remoteError{msg: w.FieldMsg, kinds: e.kinds}
	fe := &FieldError{Kind: kind, Field: w.Field, Msg: w.FieldMsg}
	if len(w.Violations) == 0 {
		return &remoteError{msg: w.Message, kinds: []error{fe}}
	}
	vs := Violations{fe}
	for _, v := range w.Violations[1:] {
		vs = append(vs, &FieldError{Kind: kind, Field: v.Field, Msg: v.Msg})
	}
	return &remoteError{msg: w.Message, kinds: []error{vs}}
}

// remoteError is an error decided on another node.
type remoteError struct {
	msg   string
	kinds []error
}

func (e *remoteError) Error() string   { return e.msg }
func (e *remoteError) Unwrap() []error { return e.kinds }
