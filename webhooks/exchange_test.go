package webhooks

import (
	"net/http"
	"strings"
	"testing"
)

func TestRecordKeepsABoundedCopy(t *testing.T) {
	big := http.Header{}
	for i := range KeepHeaders + 10 {
		big.Set("X-H-"+strings.Repeat("a", i), strings.Repeat("v", 1000))
	}
	body := []byte(`{"data":{"url":"https://n/files/doc_1/a.pdf?expires=9\u0026signature=abc123_-","x":"` + strings.Repeat("b", KeepRequestBody) + `"}}`)
	x := Record(Attempt{RequestHeader: http.Header{"X-Service-Signature": {"t=1,v1=ff"}}, Status: 502, Header: big, Body: []byte(strings.Repeat("r", KeepResponseBody))}, body)
	if !x.Request.Truncated || len(x.Request.Body) != KeepRequestBody || !strings.Contains(x.Request.Body, "signature=redacted\"") || strings.Contains(x.Request.Body, "abc123") {
		t.Fatalf("request body kept: truncated %v, %d bytes, %.120s", x.Request.Truncated, len(x.Request.Body), x.Request.Body)
	}
	if x.Request.Headers["x-service-signature"] != "t=1,v1=ff" {
		t.Fatalf("request headers %v", x.Request.Headers)
	}
	if x.Response == nil || x.Response.Status != 502 || len(x.Response.Headers) != KeepHeaders || !x.Response.Truncated {
		t.Fatalf("response %+v", x.Response)
	}
	for k, v := range x.Response.Headers {
		if len(v) > KeepHeaderValue+len("…") || k != strings.ToLower(k) {
			t.Fatalf("header %s kept as %d bytes", k, len(v))
		}
	}
	if y := Record(Attempt{RequestHeader: http.Header{}}, []byte(`{}`)); y.Response != nil || y.Request.Body != "{}" || y.Request.Truncated {
		t.Fatalf("no answer: %+v", y)
	}
}
