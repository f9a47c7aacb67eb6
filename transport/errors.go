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

// Error codes: stable, documented in docs/api.md.
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
	Status     int
	Code       string
	Message    string
	Field      string
	RetryAfter int
	// Withheld names the internal detail the error's own text carried (see
	// package leak); Message is then fixed words, and the text goes to the
	// log with the request id.
	Withheld string
}

// fixedWords are what a refusal says when its own text may not be shown:
// every 5xx but OVERLOADED (whose words are the node's own), and any
// refusal whose text carried internal detail.
var fixedWords = map[string]string{
	codeUnavailable:  "the service cannot answer this right now; retry shortly",
	codeInternal:     "internal error",
	codeRenderFailed: "the document could not be rendered",
	codeInvalid:      "the request could not be read",
	codePayload:      "the data does not fit the template",
	codeOverloaded:   "the service is busy; retry shortly",
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
	var fra *fault.RetryAfter
	if errors.As(err, &fra) {
		p.RetryAfter = fra.Seconds
	}
	switch {
	case errors.Is(err, pdftemplate.ErrTooComplex):
		p.Status, p.Code = http.StatusUnprocessableEntity, codePDFTooComplex
	case errors.Is(err, fault.ErrInvalid):
		p.Status, p.Code = http.StatusBadRequest, codeInvalid
	case errors.Is(err, render.ErrFill), errors.Is(err, render.ErrRender), errors.Is(err, render.ErrTooManyPages), errors.Is(err, render.ErrTimeout):
		p.Status, p.Code = http.StatusUnprocessableEntity, codeRenderFailed
	case errors.Is(err, fault.ErrPayload):
		p.Status, p.Code = http.StatusUnprocessableEntity, codePayload
	case errors.Is(err, app.ErrBadCredentials):
		p.Status, p.Code = http.StatusUnauthorized, codeBadCredentials
	case errors.Is(err, app.ErrSignInLocked):
		p.Status, p.Code = http.StatusTooManyRequests, codeSignInLocked
	case errors.Is(err, errCSRF):
		p.Status, p.Code = http.StatusForbidden, codeCSRF
	case errors.Is(err, app.ErrSignUpClosed):
		p.Status, p.Code = http.StatusForbidden, codeSignUpClosed
	case errors.Is(err, errUnauthenticated), errors.Is(err, fault.ErrUnauthenticated):
		p.Status, p.Code = http.StatusUnauthorized, codeUnauthenticated
	case errors.Is(err, errForbidden), errors.Is(err, fault.ErrForbidden), errors.Is(err, links.ErrInvalid):
		p.Status, p.Code = http.StatusForbidden, codeForbidden
	case errors.Is(err, fault.ErrNotFound), errors.Is(err, storage.ErrNotFound):
		p.Status, p.Code = http.StatusNotFound, codeNotFound
	case errors.Is(err, links.ErrExpired):
		p.Status, p.Code = http.StatusGone, codeLinkExpired
	case errors.Is(err, app.ErrFileExpired):
		p.Status, p.Code = http.StatusGone, codeFileExpired
	case errors.Is(err, errMethod):
		p.Status, p.Code = http.StatusMethodNotAllowed, codeMethod
	case errors.Is(err, fault.ErrConflict), errors.Is(err, storage.ErrConflict):
		p.Status, p.Code = http.StatusConflict, codeConflict
	case errors.Is(err, fault.ErrPaymentRequired):
		p.Status, p.Code = http.StatusPaymentRequired, codePayment
	case errors.Is(err, fault.ErrTooLarge):
		p.Status, p.Code = http.StatusRequestEntityTooLarge, codeTooLarge
	case errors.Is(err, errRateLimited):
		p.Status, p.Code = http.StatusTooManyRequests, codeRateLimited
	case errors.Is(err, fault.ErrOverloaded):
		p.Status, p.Code = http.StatusServiceUnavailable, codeOverloaded
	case errors.Is(err, cluster.ErrOutcomeUnknown), errors.Is(err, actors.ErrNoAnswer):
		// The change may still happen: the caller must look before retrying.
		p.Status, p.Code = http.StatusServiceUnavailable, codeUnavailable
		p.Message = outcomeUnknown
	case errors.Is(err, fault.ErrUnavailable), errors.Is(err, storage.ErrStale), errors.Is(err, cluster.ErrNotLeader), errors.Is(err, actors.ErrPanicked):
		// What is unavailable (a peer, the leader, an owner) is internal
		// detail: the caller needs only to retry.
		p.Status, p.Code = http.StatusServiceUnavailable, codeUnavailable
		p.Message = fixedWords[codeUnavailable]
	default:
		p.Status, p.Code = http.StatusInternalServerError, codeInternal
		p.Message = fixedWords[codeInternal]
	}
	if kind := leak.Find(p.Message); kind != "" {
		p.Withheld, p.Message = kind, fixedWords[p.Code]
		if p.Message == "" {
			p.Message = "the request was refused"
		}
	}
	if p.Status == http.StatusServiceUnavailable || p.Status == http.StatusTooManyRequests {
		p.RetryAfter = max(p.RetryAfter, 1)
	}
	return p
}
