package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Error codes of docs/api.md "Error codes", as Error.Code holds them.
const (
	CodeInvalidRequest          = "INVALID_REQUEST"
	CodeUnauthenticated         = "UNAUTHENTICATED"
	CodePaymentRequired         = "PAYMENT_REQUIRED"
	CodeForbidden               = "FORBIDDEN"
	CodeNotFound                = "NOT_FOUND"
	CodeMethodNotAllowed        = "METHOD_NOT_ALLOWED"
	CodeConflict                = "CONFLICT"
	CodePayloadTooLarge         = "PAYLOAD_TOO_LARGE"
	CodePayloadValidationFailed = "PAYLOAD_VALIDATION_FAILED"
	CodeRateLimited             = "RATE_LIMITED"
	CodeOverloaded              = "OVERLOADED"
	CodeRenderFailed            = "RENDER_FAILED"
	CodePDFTooComplex           = "PDF_TOO_COMPLEX"
	CodeLinkExpired             = "LINK_EXPIRED"
	CodeFileExpired             = "FILE_EXPIRED"
	CodeUnavailable             = "UNAVAILABLE"
	CodeInternal                = "INTERNAL"
)

// Codes of a failed document's ErrorCode (docs/api.md "Documents");
// RENDER_FAILED is both a refusal's and a document's.
const (
	CodeTemplateError   = "TEMPLATE_ERROR"
	CodeRenderTimeout   = "RENDER_TIMEOUT"
	CodeTooManyPages    = "TOO_MANY_PAGES"
	CodeDataUnavailable = "DATA_UNAVAILABLE"
	CodeSigningFailed   = "SIGNING_FAILED"
)

// StatusOfCode is the HTTP status the API answers with a code (docs/api.md
// "Error codes"), or 0 for a code it does not know: realtime error frames
// carry only the code.
func StatusOfCode(code string) int {
	switch code {
	case CodeInvalidRequest:
		return http.StatusBadRequest
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodePaymentRequired:
		return http.StatusPaymentRequired
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeConflict:
		return http.StatusConflict
	case CodeLinkExpired, CodeFileExpired:
		return http.StatusGone
	case CodePayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodePayloadValidationFailed, CodeRenderFailed, CodePDFTooComplex:
		return http.StatusUnprocessableEntity
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodeInternal:
		return http.StatusInternalServerError
	case CodeOverloaded, CodeUnavailable:
		return http.StatusServiceUnavailable
	}
	return 0
}

// Violation is one input at fault.
type Violation struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is a refusal from the API: its HTTP status and the error envelope
// of docs/api.md. Match it with errors.As:
//
//	var e *client.Error
//	if errors.As(err, &e) && e.Code == client.CodePayloadValidationFailed {
//		fmt.Println("fix", e.Field)
//	}
type Error struct {
	// Status is the HTTP status.
	Status int
	// Code is the error's code (the Code… constants).
	Code string
	// Message says what was wrong, for people.
	Message string
	// Field is the path of the input at fault (items[2].price), when one is:
	// the first of Violations when there are several.
	Field string
	// Violations are every field at fault, in the order found (at most
	// 50), when data broke the template's data schema
	// (PAYLOAD_VALIDATION_FAILED).
	Violations []Violation
	// RetryAfter is the wait the answer's Retry-After asked for (429, 503).
	RetryAfter time.Duration
	// RequestID is the answer's X-Request-Id: quote it when reporting.
	RequestID string
	// Attempts is how many times the request was sent before this answer.
	Attempts int
}

func (e *Error) Error() string {
	s := fmt.Sprintf("platen: %d %s: %s", e.Status, e.Code, e.Message)
	if e.Field != "" {
		s += " (field " + e.Field + ")"
	}
	return s
}

// Temporary reports whether the same request may succeed later as it is:
// a rate limit, a full queue, a node not ready.
func (e *Error) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable
}

// retryable reports whether the client sends the request again. A 503
// UNAVAILABLE may come after the change took effect ("the outcome is not
// known"), so it is repeated only where repeating is safe.
func (e *Error) retryable(safe bool) bool {
	switch e.Status {
	case http.StatusTooManyRequests:
		return true
	case http.StatusServiceUnavailable:
		return safe || e.Code == CodeOverloaded
	}
	return false
}

// errorFrom reads an error envelope; an answer that is not one (a proxy's
// page) still gives an Error with the status.
func errorFrom(resp *http.Response, body []byte) *Error {
	e := &Error{Status: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(resp.Header.Get("Retry-After")); err == nil {
		e.RetryAfter = max(time.Until(t), 0)
	}
	var env struct {
		Error struct {
			Code       string      `json:"code"`
			Message    string      `json:"message"`
			Field      string      `json:"field"`
			Violations []Violation `json:"violations"`
		} `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &env) == nil && env.Error.Code != "" {
		e.Code, e.Message, e.Field, e.Violations = env.Error.Code, env.Error.Message, env.Error.Field, env.Error.Violations
		return e
	}
	e.Code = "HTTP_" + strconv.Itoa(resp.StatusCode)
	e.Message = http.StatusText(resp.StatusCode)
	if len(body) > 0 && len(body) < 512 {
		e.Message += ": " + string(body)
	}
	return e
}
