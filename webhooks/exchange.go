package webhooks

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Bounds of what the delivery log keeps of an attempt: it is replicated
// state, so a receiver that answers with a megabyte of headers or body must
// not grow it by that.
const (
	// KeepRequestBody is how much of the body sent is kept.
	KeepRequestBody = 16 << 10
	// KeepResponseBody is how much of the answer's body is kept (the sender
	// reads no more).
	KeepResponseBody = 1 << 10
	// KeepHeaders is how many headers of each side are kept, and
	// KeepHeaderValue how long each value may be.
	KeepHeaders     = 32
	KeepHeaderValue = 256
)

// Exchange is the request an attempt sent and the answer it got, as the
// delivery log keeps them: bounded, and with any download link's signature
// removed (the log is read with webhooks.read, which is not documents.read).
type Exchange struct {
	Request  Sent      `json:"request"`
	Response *Answered `json:"response,omitempty"` // nil when nothing answered
}

// Sent is the request an attempt made.
type Sent struct {
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	// Truncated says the body was longer than KeepRequestBody.
	Truncated bool `json:"truncated,omitempty"`
}

// Answered is what the receiver answered.
type Answered struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	// Truncated says the body may be longer than what is kept.
	Truncated bool `json:"truncated,omitempty"`
}

// linkSignature is the signature of a download link in a payload's url
// (encoding/json writes its & as \u0026).
var linkSignature = regexp.MustCompile(`("url":"[^"]*(?:[?&]|\\u0026)signature=)[^"&\\]*`)

// Record keeps attempt a, which sent body, for the delivery log.
func Record(a Attempt, body []byte) Exchange {
	kept := linkSignature.ReplaceAll(body, []byte("${1}redacted"))
	x := Exchange{Request: Sent{Headers: keepHeaders(a.RequestHeader), Body: string(kept[:min(len(kept), KeepRequestBody)]), Truncated: len(kept) > KeepRequestBody}}
	if a.Status != 0 {
		rb := a.Body[:min(len(a.Body), KeepResponseBody)]
		x.Response = &Answered{Status: a.Status, Headers: keepHeaders(a.Header), Body: strings.ToValidUTF8(string(rb), "\uFFFD"), Truncated: len(a.Body) >= KeepResponseBody}
	}
	return x
}

// keepHeaders flattens h (values joined by ", ", names in lower case), the
// first KeepHeaders names in order, each value cut at KeepHeaderValue.
func keepHeaders(h http.Header) map[string]string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make(map[string]string, min(len(names), KeepHeaders))
	for _, k := range names[:min(len(names), KeepHeaders)] {
		v := strings.Join(h[k], ", ")
		if len(v) > KeepHeaderValue {
			v = strings.ToValidUTF8(v[:KeepHeaderValue], "") + "…"
		}
		out[strings.ToLower(k)] = v
	}
	return out
}
