package webhooks

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
)

// Explain says in words why a request got no answer, for the endpoint's
// owner: never Go's error chain, the request's method and URL again, or
// the node's own addresses (its resolver, its source port).
func Explain(err error) string {
	if err == nil {
		return "no error"
	}
	var dns *net.DNSError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	switch {
	case errors.Is(err, ErrForbiddenAddress):
		// The guard's own words, which name the endpoint's address.
		s := err.Error()
		if i := strings.Index(s, ErrForbiddenAddress.Error()); i >= 0 {
			return "refused by Platen: " + s[i:]
		}
		return "refused by Platen: " + ErrForbiddenAddress.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Sprintf("no answer within %s", Timeout)
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Sprintf("the host name %s does not exist", dns.Name)
	case errors.As(err, &dns):
		return fmt.Sprintf("the host name %s could not be looked up just now", dns.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused: nothing listens at that address and port"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host cannot be reached from this node"
	case errors.As(err, &unknown):
		return "its TLS certificate is not signed by an authority this node trusts"
	case errors.As(err, &host):
		return "its TLS certificate is not for this host name"
	case errors.As(err, &invalid):
		return "its TLS certificate is expired, not yet valid or not usable for a server"
	case errors.As(err, &record):
		return "it did not answer in TLS (is it plain http?)"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection was closed before an answer"
	case errors.Is(err, context.Canceled):
		return "the request was cancelled (the node is stopping)"
	}
	return "the request failed before an answer"
}
