package transport

import (
	"fmt"
	"net/http"
	"strings"
)

// retry says whether sending a refused request again can help.
type retry string

const (
	// retryNo: the same request is refused again; change it (or the state
	// it depends on) first.
	retryNo retry = "no"
	// retryAfterWait: the same request may succeed after the seconds
	// Retry-After gives.
	retryAfterWait retry = "yes, after Retry-After"
	// retryAfterReading: the change may have taken effect; read the
	// resource (or retry with the same reference or Idempotency-Key).
	retryAfterReading retry = "after reading the resource"
	// retryLater: a fault of ours; a later attempt may work.
	retryLater retry = "later; quote the request id"
)

// errorCode is one entry of the catalogue of refusals.
type errorCode struct {
	Code   string
	Status int
	// When says what makes the server answer it.
	When string
	// Retry says whether sending the request again helps.
	Retry retry
	// Fixed are the words the message says when the refusal's own text may
	// not be shown (see statusOf); empty where the message is the
	// refusal's own, which names the field, the limit or the fix.
	Fixed string
	// Console marks the codes of the console's session routes
	// (docs/console.md); a session's requests to /v1 routes may meet them.
	Console bool
}

// catalogue is every code a refusal can carry, and its status. statusOf
// takes the status from it; TestTheErrorCatalogue holds the OpenAPI
// document's Error.code, docs/api.md's table and both clients' codes to it.
var catalogue = []errorCode{
	{Code: codeInvalid, Status: http.StatusBadRequest, Retry: retryNo,
		When:  "malformed JSON, a body that is not an object, an unknown field, a wrong type, a bad parameter; `field` names the input at fault",
		Fixed: "the request could not be read"},
	{Code: codeUnauthenticated, Status: http.StatusUnauthorized, Retry: retryNo,
		When: "no key, an unknown or revoked key (operator API: no or wrong operator token)"},
	{Code: codePayment, Status: http.StatusPaymentRequired, Retry: retryNo,
		When: "the request cannot be paid for (the allowance is used and the wallet cannot cover it, or the sandbox cap is reached); nothing was rendered"},
	{Code: codeForbidden, Status: http.StatusForbidden, Retry: retryNo,
		When: "the key lacks the scope the operation needs (the message names it), or a download link's signature is wrong"},
	{Code: codeNotFound, Status: http.StatusNotFound, Retry: retryNo,
		When: "no such route or id, also for another organisation's ids"},
	{Code: codeMethod, Status: http.StatusMethodNotAllowed, Retry: retryNo,
		When: "the path exists with other methods, listed in `Allow`"},
	{Code: codeConflict, Status: http.StatusConflict, Retry: retryNo,
		When: "the request clashes with existing state (a slug taken, a reference reused); `field` names the input when one is at fault (`slug`)"},
	{Code: codeLinkExpired, Status: http.StatusGone, Retry: retryNo,
		When: "a download link past its expiry; fetch the document for a fresh one"},
	{Code: codeFileExpired, Status: http.StatusGone, Retry: retryNo,
		When: "the document's file was deleted at the end of the retention period"},
	{Code: codeTooLarge, Status: http.StatusRequestEntityTooLarge, Retry: retryNo,
		When: "the body is over the route's limit (see Limits)"},
	{Code: codePayload, Status: http.StatusUnprocessableEntity, Retry: retryNo,
		When:  "data does not satisfy the template's schema: `violations` lists every field at fault (up to 50) and `field` is the first; or it does not fit a PDF template's fields or an e-invoice's rules, where `field` names the first",
		Fixed: "the data does not fit the template"},
	{Code: codeRenderFailed, Status: http.StatusUnprocessableEntity, Retry: retryNo,
		When:  "a preview or dry run could not be rendered: a helper failed, it took longer than 20 s, or it would print more than 2,000 pages (the message names the element or the content)",
		Fixed: "the document could not be rendered"},
	{Code: codePDFTooComplex, Status: http.StatusUnprocessableEntity, Retry: retryNo,
		When: "an uploaded PDF costs more to read than the node allows (nesting, objects, expansion, memory or time); `field` is `file` and the message names the limit ([operator.md](operator.md#uploaded-pdfs))"},
	{Code: codeRateLimited, Status: http.StatusTooManyRequests, Retry: retryAfterWait,
		When: "the key is over its rate, or the client address is over its rate for requests without a valid key (see Limits)"},
	{Code: codeInternal, Status: http.StatusInternalServerError, Retry: retryLater,
		When:  "a fault of ours; the detail is in the node's log under the request id",
		Fixed: "internal error"},
	{Code: codeOverloaded, Status: http.StatusServiceUnavailable, Retry: retryAfterWait,
		When:  "a queue is full, or the node serves its maximum of connections (the connection is then closed)",
		Fixed: "the service is busy; retry shortly"},
	{Code: codeUnavailable, Status: http.StatusServiceUnavailable, Retry: retryAfterReading,
		When:  "the node cannot answer right now (no raft leader yet, shutting down, a peer gone). When the message says the outcome is not known, the change may still take effect: read the resource before retrying; otherwise retry after `Retry-After`",
		Fixed: "the service cannot answer this right now; retry shortly"},
	{Code: codeBadCredentials, Status: http.StatusUnauthorized, Retry: retryNo, Console: true,
		When: "a sign-in's email or password is wrong (it does not say which)"},
	{Code: codeCSRF, Status: http.StatusForbidden, Retry: retryNo, Console: true,
		When: "a session's request without its CSRF token, or from another site"},
	{Code: codeSignUpClosed, Status: http.StatusForbidden, Retry: retryNo, Console: true,
		When: "open sign-up is off on this node"},
	{Code: codeSignInLocked, Status: http.StatusTooManyRequests, Retry: retryAfterWait, Console: true,
		When: "too many failed sign-ins for the email"},
}

// byCode is the catalogue by code.
var byCode = func() map[string]errorCode {
	m := make(map[string]errorCode, len(catalogue))
	for _, c := range catalogue {
		m[c.Code] = c
	}
	return m
}()

// catalogueTable is the catalogue as docs/api.md shows it, between its
// markers; TestTheErrorCatalogue compares the two (PLATEN_WRITE_DOCS=1
// writes it).
func catalogueTable() string {
	var b strings.Builder
	b.WriteString("| HTTP | code | when | retry helps |\n|---|---|---|---|\n")
	for _, c := range catalogue {
		code := "`" + c.Code + "`"
		if c.Console {
			code += " (console)"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s |\n", c.Status, code, c.When, c.Retry)
	}
	return b.String()
}
