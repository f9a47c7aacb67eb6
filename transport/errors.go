package transport

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/app"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/leak"
	"github.com/platen/platen/links"
	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// Refusals that only the transport makes.
var (
	// errUnauthenticated is a request without a valid key or operator token.
	errUnauthenticated = errors.New("a valid API key is required in the Authorization header as Bearer <key>")
	// errForbidden is a key that lacks the scope a route needs.
	errForbidden = errors.New("forbidden")
	// errTooLarge is a body over the route's limit: a fault.ErrTooLarge,
	// as a use case's oversized input is.
	errTooLarge = fmt.Errorf("request body %w", fault.ErrTooLarge)
	// errRateLimited is a key over its request rate.
	errRateLimited = errors.New("too many requests")
	// errMethod is a known path with another method.
	errMethod = errors.New("method not allowed")
)

// Error codes: stable, each with its status in the catalogue
// (catalogue.go), which docs/api.md's table shows.
const (
	codeInvalid         = "INVALID_REQUEST"
	codeUnauthenticated = "UNAUTHENTICATED"
	codeForbidden       = "FORBIDDEN"
	codeNotFound        = "NOT_FOUND"
	codeMethod          = "METHOD_NOT_ALLOWED"
	codeConflict        = "CONFLICT"
	codePayment         = "PAYMENT_REQUIRED"
	codeTooLarge        = "PAYLOAD_TOO_LARGE"
	codePayload         = "PAYLOAD_VALIDATION_FAILED"
	codeRateLimited     = "RATE_LIMITED"
	codeOverloaded      = "OVERLOADED"
	codeUnavailable     = "UNAVAILABLE"
	codeRenderFailed    = "RENDER_FAILED"
	codePDFTooComplex   = "PDF_TOO_COMPLEX"
	codeLinkExpired     = "LINK_EXPIRED"
	codeFileExpired     = "FILE_EXPIRED"
	codeInternal        = "INTERNAL"
	// The console's (docs/console.md).
	codeBadCredentials = "INVALID_CREDENTIALS"
	codeSignInLocked   = "SIGN_IN_LOCKED"
	codeCSRF           = "CSRF"
	codeSignUpClosed   = "SIGN_UP_CLOSED"
)

// problem is a refusal as it goes on the wire.
type problem struct {
	Status  int
	Code    string
	Message string
	Field   string
	// Violations are every field at fault, when the refusal listed them
	// (fault.Violations); Field is the first's.
	Violations []violation
	RetryAfter int
	// Withheld names the internal detail the error's own text carried (see
	// package leak); Message is then fixed words, and the text goes to the
	// log with the request id.
	Withheld string
}

// violation is one field at fault, as error.violations lists it.
type violation struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// outcomeUnknown is the words of a 503 whose change may still take effect.
const outcomeUnknown = "the outcome of this request is not known yet; it may still take effect, so read the resource (or retry with the same reference) before trying again"

// statusOf maps any error a handler returns to its status and code. It is the
// only place that does: no handler picks a status for a refusal.
func statusOf(err error) problem {
	p := problem{Message: err.Error()}
	var fe *fault.FieldError
	if errors.As(err, &fe) {
		p.Field, p.Message = fe.Field, fe.Error()
	}
	var vs fault.Violations
	if errors.As(err, &vs) {
		p.Message = vs.Error()
		for _, v := range vs {
			p.Violations = append(p.Violations, violation{Field: v.Field, Message: v.Msg})
		}
	}
	var fra *fault.RetryAfter
	if errors.As(err, &fra) {
		p.RetryAfter = fra.Seconds
	}
	switch {
	case errors.Is(err, pdftemplate.ErrTooComplex):
		p.Code = codePDFTooComplex
	case errors.Is(err, fault.ErrInvalid):
		p.Code = codeInvalid
	case errors.Is(err, render.ErrFill), errors.Is(err, render.ErrRender), errors.Is(err, render.ErrTooManyPages), errors.Is(err, render.ErrTimeout):
		p.Code = codeRenderFailed
	case errors.Is(err, fault.ErrPayload):
		p.Code = codePayload
	case errors.Is(err, app.ErrBadCredentials):
		p.Code = codeBadCredentials
	case errors.Is(err, app.ErrSignInLocked):
		p.Code = codeSignInLocked
	case errors.Is(err, errCSRF):
		p.Code = codeCSRF
	case errors.Is(err, app.ErrSignUpClosed):
		p.Code = codeSignUpClosed
	case errors.Is(err, errUnauthenticated), errors.Is(err, fault.ErrUnauthenticated):
		p.Code = codeUnauthenticated
	case errors.Is(err, errForbidden), errors.Is(err, fault.ErrForbidden), errors.Is(err, links.ErrInvalid):
		p.Code = codeForbidden
	case errors.Is(err, fault.ErrNotFound):
		p.Code = codeNotFound
	case errors.Is(err, links.ErrExpired):
		p.Code = codeLinkExpired
	case errors.Is(err, app.ErrFileExpired):
		p.Code = codeFileExpired
	case errors.Is(err, errMethod):
		p.Code = codeMethod
	case errors.Is(err, fault.ErrConflict):
		p.Code = codeConflict
	case errors.Is(err, fault.ErrPaymentRequired):
		p.Code = codePayment
	case errors.Is(err, fault.ErrTooLarge):
		p.Code = codeTooLarge
	case errors.Is(err, errRateLimited):
		p.Code = codeRateLimited
	case errors.Is(err, fault.ErrOverloaded):
		p.Code = codeOverloaded
	case errors.Is(err, cluster.ErrOutcomeUnknown), errors.Is(err, actors.ErrNoAnswer):
		// The change may still happen: the caller must look before retrying.
		p.Code = codeUnavailable
		p.Message = outcomeUnknown
	case errors.Is(err, fault.ErrUnavailable), errors.Is(err, storage.ErrStale), errors.Is(err, cluster.ErrNotLeader), errors.Is(err, actors.ErrPanicked):
		// What is unavailable (a peer, the leader, an owner) is internal
		// detail: the caller needs only to retry.
		p.Code = codeUnavailable
		p.Message = byCode[codeUnavailable].Fixed
	default:
		p.Code = codeInternal
		p.Message = byCode[codeInternal].Fixed
	}
	p.Status = byCode[p.Code].Status
	kind := leak.Find(p.Message)
	for _, v := range p.Violations {
		if kind == "" {
			kind = leak.Find(v.Message)
		}
	}
	if kind != "" {
		p.Withheld, p.Message, p.Violations = kind, byCode[p.Code].Fixed, nil
		if p.Message == "" {
			p.Message = "the request was refused"
		}
	}
	if p.Status == http.StatusServiceUnavailable || p.Status == http.StatusTooManyRequests {
		p.RetryAfter = max(p.RetryAfter, 1)
	}
	return p
}
