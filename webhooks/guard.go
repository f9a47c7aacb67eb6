package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// ErrForbiddenAddress is a webhook URL or address that may not be reached.
var ErrForbiddenAddress = errors.New("address not allowed")

// blocked are the ranges a delivery must never reach (docs/design.md "Webhooks").
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
		"224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
		"::/96", "::ffff:0:0:0/96", "64:ff9b:1::/48", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
		"2001::/32", "2001:db8::/32", "100::/64",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Public reports whether addr may be reached by a delivery. IPv4 carried in
// IPv6 (mapped, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4
// address inside it; IPv4-compatible (::/96), SIIT (::ffff:0:0:0/96), the
// local NAT64 prefix (64:ff9b:1::/48), site-local (fec0::/10) and Teredo
// (2001::/32) addresses are refused outright.
func Public(addr netip.Addr) bool {
	addr = addr.Unmap()
	if addr.Is6() {
		b := addr.As16()
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(addr):
			return Public(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case netip.MustParsePrefix("2002::/16").Contains(addr):
			return Public(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	if !addr.IsValid() || addr.IsUnspecified() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// Resolver looks host names up; net.DefaultResolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard decides which URLs and addresses deliveries may use.
type Guard struct {
	Resolver Resolver
	// AllowPrivate lets private and loopback addresses through. For tests
	// only: never in production.
	AllowPrivate bool
}

// CheckURL validates a webhook URL at registration: https, a host, no
// credentials, and every address the host resolves to public.
func (g Guard) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%w: not an absolute URL", ErrForbiddenAddress)
	}
	if u.Scheme != "https" {
		return fmt.Errorf("%w: the URL must use https", ErrForbiddenAddress)
	}
	if u.User != nil {
		return fmt.Errorf("%w: the URL must not carry credentials", ErrForbiddenAddress)
	}
	if u.Fragment != "" || len(raw) > 2048 {
		return fmt.Errorf("%w: the URL must be at most 2048 characters without a fragment", ErrForbiddenAddress)
	}
	host := u.Hostname()
	if g.AllowPrivate {
		return nil
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if !Public(addr) {
			return fmt.Errorf("%w: %s is not a public address", ErrForbiddenAddress, addr)
		}
		return nil
	}
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return fmt.Errorf("%w: localhost", ErrForbiddenAddress)
	}
	addrs, err := g.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return fmt.Errorf("%w: %s does not resolve", ErrForbiddenAddress, host)
	}
	for _, a := range addrs {
		if !Public(a) {
			return fmt.Errorf("%w: %s resolves to %s, which is not public", ErrForbiddenAddress, host, a)
		}
	}
	return nil
}

// Control is a net.Dialer Control function that refuses, at the moment of
// connecting, any address that is not public: a name that resolved to a
// public address at registration and to a private one now is stopped here.
func (g Guard) Control(network, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
	}
	if !Public(ap.Addr()) {
		return fmt.Errorf("%w: %s is not a public address", ErrForbiddenAddress, ap.Addr())
	}
	return nil
}
