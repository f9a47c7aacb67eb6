package webhooks

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
)

// fakeResolver answers from a table; anything else does not resolve.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	var out []netip.Addr
	for _, s := range f[host] {
		out = append(out, netip.MustParseAddr(s))
	}
	if len(out) == 0 {
		return nil, errors.New("no such host")
	}
	return out, nil
}

var resolver = fakeResolver{
	"public.example":           {"93.184.216.34"},
	"private.example":          {"10.0.0.5"},
	"loop.example":             {"127.0.0.1"},
	"rebind.example":           {"93.184.216.34", "127.0.0.1"},
	"metadata.google.internal": {"169.254.169.254"},
	"v6loop.example":           {"::1"},
	"cgnat.example":            {"100.64.1.1"},
}

// TestForbiddenAddressesNeverConnect refuses each URL at registration, and
// for those pointing at a canary listener, also at dial time: the canary must
// see no connection at all.
func TestForbiddenAddressesNeverConnect(t *testing.T) {
	canary, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer canary.Close()
	var hits atomic.Int64
	go func() {
		for {
			c, err := canary.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	port := canary.Addr().(*net.TCPAddr).Port
	p := func(host string) string { return fmt.Sprintf("https://%s:%d/hook", host, port) }

	forbidden := []string{
		"http://public.example/hook", // not https
		"ftp://public.example/",
		"https:///nohost",
		"not a url",
		p("127.0.0.1"), p("127.0.0.53"), p("127.255.255.254"),
		p("localhost"), p("LOCALHOST"), p("api.localhost"),
		p("[::1]"), p("[::ffff:127.0.0.1]"), p("[0:0:0:0:0:0:0:1]"),
		p("0.0.0.0"), p("[::]"),
		p("127.1"), p("2130706433"), p("0x7f000001"), p("017700000001"),
		"https://169.254.169.254/latest/meta-data/", p("metadata.google.internal"),
		p("10.1.2.3"), p("172.16.0.1"), p("172.31.255.255"), p("192.168.1.1"),
		p("100.64.0.1"), p("cgnat.example"), p("198.18.0.1"), p("198.19.255.255"),
		p("224.0.0.1"), p("239.255.255.250"), p("240.0.0.1"), p("255.255.255.255"),
		p("[fc00::1]"), p("[fd12:3456::1]"), p("[fe80::1]"), p("[ff02::1]"),
		p("[64:ff9b::7f00:1]"), p("[64:ff9b::a00:1]"), p("[2002:7f00:1::]"), p("[2002:a00:1::]"),
		p("[::127.0.0.1]"), p("[::ffff:0:7f00:1]"), p("[64:ff9b:1::7f00:1]"), p("[fec0::1]"), p("[2001:0:4136:e378::1]"),
		p("private.example"), p("loop.example"), p("v6loop.example"), p("rebind.example"),
		p("does-not-resolve.example"),
		"https://user:secret@public.example/hook",
		fmt.Sprintf("https://public.example:%d@127.0.0.1:%d/", port, port),
	}
	if len(forbidden) < 30 {
		t.Fatalf("only %d cases", len(forbidden))
	}
	g := Guard{Resolver: resolver}
	for _, u := range forbidden {
		if err := g.CheckURL(context.Background(), u); !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("registration accepted %s (%v)", u, err)
		}
	}
	if err := g.CheckURL(context.Background(), "https://public.example/hook?a=1"); err != nil {
		t.Fatalf("a public URL refused: %v", err)
	}

	// Dial time: the sender refuses every non-public address it would
	// connect to, whatever registration said.
	s := NewSender(g, nil)
	for _, u := range forbidden {
		if !strings.HasPrefix(u, "https://") {
			continue
		}
		a := s.Send(context.Background(), u, []byte("k"), "dlv_x", "ping", []byte("{}"), time.Now())
		if a.Err == nil {
			t.Errorf("delivery to %s got HTTP %d", u, a.Status)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if n := hits.Load(); n != 0 {
		t.Fatalf("%d connections reached the canary", n)
	}
	// The canary counts: a direct connection is seen.
	c, _ := net.Dial("tcp", canary.Addr().String())
	c.Close()
	poll.Until(t, 2*time.Second, func() error {
		if hits.Load() == 0 {
			return errors.New("the canary does not count connections: none seen")
		}
		return nil
	})
	if hits.Load() != 1 {
		t.Fatal("the canary does not count connections")
	}
}

// TestRedirectsAreNotFollowed: a receiver answering 302 to the canary is a
// permanent failure, and the canary is never contacted.
func TestRedirectsAreNotFollowed(t *testing.T) {
	var canaryHits atomic.Int64
	canary := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { canaryHits.Add(1) }))
	defer canary.Close()
	recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, canary.URL+"/stolen", http.StatusFound)
	}))
	defer recv.Close()
	s := NewSender(Guard{AllowPrivate: true}, []*x509.Certificate{recv.Certificate()})
	a := s.Send(context.Background(), recv.URL, []byte("k"), "dlv_x", "ping", []byte("{}"), time.Now())
	if a.Status != http.StatusFound || Classify(a.Status) != Permanent {
		t.Fatalf("redirect: %+v", a)
	}
	if canaryHits.Load() != 0 {
		t.Fatal("the redirect was followed")
	}
}

func TestScheduleAndClassify(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var total time.Duration
	for n := 1; n <= 6; n++ {
		d, ok := NextDelay(Schedule, n, r, 0)
		base := Schedule[n-1]
		if !ok || d < time.Duration(float64(base)*0.8) || d > time.Duration(float64(base)*1.2) {
			t.Fatalf("retry %d waits %s, want %s ±20%%", n, d, base)
		}
		total += d
	}
	if total < 50*time.Minute || total > 75*time.Minute {
		t.Fatalf("six retries span %s, want about an hour", total)
	}
	if _, ok := NextDelay(Schedule, 7, r, 0); ok {
		t.Fatal("a seventh retry")
	}
	if d, _ := NextDelay(Schedule, 1, r, 10*time.Minute); d != 10*time.Minute {
		t.Fatalf("Retry-After not honoured: %s", d)
	}
	for status, want := range map[int]Outcome{200: Delivered, 204: Delivered, 301: Permanent, 302: Permanent, 400: Permanent,
		401: Permanent, 404: Permanent, 410: Permanent, 408: Retry, 429: Retry, 500: Retry, 503: Retry, 0: Retry} {
		if got := Classify(status); got != want {
			t.Errorf("Classify(%d) = %d, want %d", status, got, want)
		}
	}
	h := http.Header{}
	h.Set("Retry-After", "120")
	if RetryAfter(h, time.Now()) != 2*time.Minute {
		t.Fatal("Retry-After seconds")
	}
}

// After is the one rule for what follows an attempt.
func TestAfterDecidesWhatFollowsAnAttempt(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(1, 2))
	wait := http.Header{"Retry-After": []string{"900"}}
	for _, c := range []struct {
		name    string
		n       int
		status  int
		header  http.Header
		want    Outcome
		minWait time.Duration
		maxWait time.Duration
	}{
		{"delivered", 1, 204, nil, Delivered, 0, 0},
		{"redirect is permanent", 1, 302, nil, Permanent, 0, 0},
		{"404 is permanent", 3, 404, nil, Permanent, 0, 0},
		{"503 first retry about 30 s", 1, 503, nil, Retry, 24 * time.Second, 36 * time.Second},
		{"no answer is retried", 2, 0, nil, Retry, 96 * time.Second, 144 * time.Second},
		{"429 honours Retry-After", 1, 429, wait, Retry, 15 * time.Minute, 15 * time.Minute},
		{"last retry about 30 min", 6, 500, nil, Retry, 24 * time.Minute, 36 * time.Minute},
		{"retries used up", 7, 500, nil, Permanent, 0, 0},
	} {
		got, next := After(Schedule, c.n, c.status, c.header, at, r)
		if got != c.want {
			t.Errorf("%s: outcome %d, want %d", c.name, got, c.want)
			continue
		}
		if got != Retry {
			if !next.IsZero() {
				t.Errorf("%s: a next attempt at %s for an outcome that has none", c.name, next)
			}
			continue
		}
		if d := next.Sub(at); d < c.minWait || d > c.maxWait {
			t.Errorf("%s: next attempt after %s, want %s to %s", c.name, d, c.minWait, c.maxWait)
		}
	}
}
