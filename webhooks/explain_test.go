package webhooks

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestExplainSaysItInWords: the reasons a delivery got no answer are said
// in words, without Go's error chain, the URL again, or the node's own
// resolver; a real refused connection and a real timeout among them.
func TestExplainSaysItInWords(t *testing.T) {
	wrap := func(err error) error { return &url.Error{Op: "Post", URL: "https://hooks.example.com/x", Err: err} }
	// A port nothing listens on: a real refusal.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, refused := net.Dial("tcp", addr)
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	for _, c := range []struct {
		err  error
		want string
	}{
		{wrap(refused), "the connection was refused"},
		{wrap(ctx.Err()), "no answer within"},
		{wrap(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "hooks.example.com", Server: "127.0.0.53:53", IsNotFound: true}}), "the host name hooks.example.com does not exist"},
		{wrap(&net.DNSError{Err: "server misbehaving", Name: "hooks.example.com", Server: "127.0.0.53:53"}), "could not be looked up"},
		{wrap(x509.UnknownAuthorityError{}), "not signed by an authority"},
		{wrap(fmt.Errorf("dial tcp 10.0.0.5:443: %w: 10.0.0.5 is not a public address", ErrForbiddenAddress)), "refused by Platen: address not allowed: 10.0.0.5 is not a public address"},
		{wrap(fmt.Errorf("something odd")), "the request failed before an answer"},
	} {
		got := Explain(c.err)
		if !strings.Contains(got, c.want) {
			t.Errorf("Explain(%v) = %q, want %q", c.err, got, c.want)
		}
		for _, leak := range []string{"127.0.0.53", "Post", "dial tcp", "https://"} {
			if strings.Contains(got, leak) {
				t.Errorf("Explain(%v) = %q shows %q", c.err, got, leak)
			}
		}
	}
}
