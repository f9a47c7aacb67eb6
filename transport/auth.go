package transport

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// bearer returns the token of an "Authorization: Bearer" header.
func bearer(r *request) ([]byte, bool) {
	h := r.Request.Header.Peek("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !bytes.EqualFold(h[:len(prefix)], []byte(prefix)) {
		return nil, false
	}
	return bytes.TrimSpace(h[len(prefix):]), true
}

// authenticate finds the caller's key and organisation, applies the key's rate
// limit and checks the route's scope.
func (s *Server) authenticate(r *request) error {
	token, ok := bearer(r)
	if !ok {
		if c := r.Request.Header.Cookie(sessionCookie); len(c) > 0 {
			return s.authenticateSession(r, string(c))
		}
		return errUnauthenticated
	}
	key, err := s.deps.Store.APIKeyByHash(auth.Hash(string(token)))
	if errors.Is(err, storage.ErrNotFound) && s.deps.CatchUp != nil && auth.LooksLikeKey(string(token)) {
		// A key made on another node a moment ago may not be applied here yet.
		if s.deps.CatchUp() == nil {
			key, err = s.deps.Store.APIKeyByHash(auth.Hash(string(token)))
		}
	}
	if errors.Is(err, storage.ErrNotFound) {
		return errUnauthenticated
	}
	if err != nil {
		return err
	}
	org, err := s.deps.Store.Org(key.OrgID)
	if err != nil {
		// Not the caller's 404: a key without its organisation is our fault.
		return fmt.Errorf("key %s has no organisation: %v", key.ID, err)
	}
	r.key, r.org = key, org
	lim := s.rateLimits(org)
	if wait := s.limits.allowAt(key.ID, lim); wait > 0 {
		return fault.Retry(fmt.Errorf("%w: this key may make %g requests a second with bursts of %d", errRateLimited, lim.PerSecond, lim.Burst), int(math.Ceil(wait.Seconds())))
	}
	if need := r.route.Scope; need != "" && !auth.Grants(key.Scopes, need) {
		return fmt.Errorf("%w: this key lacks the scope %s (%s)", errForbidden, need, auth.Label(string(need)))
	}
	s.app.KeyUsed(key)
	return nil
}

// authenticateOperator checks the operator token.
func (s *Server) authenticateOperator(r *request) error {
	token, ok := bearer(r)
	if !ok || s.deps.OperatorTokenHash == "" || !auth.Equal(auth.Hash(string(token)), s.deps.OperatorTokenHash) {
		return fmt.Errorf("%w: the operator API needs the operator token as Bearer <token>", errUnauthenticated)
	}
	r.operator = true
	return nil
}

// rateLimits are what each key of org may do: the organisation's own
// limits, else its plan's, else the node's (docs/operator.md "Rate limits").
func (s *Server) rateLimits(org storage.Org) storage.RateLimits {
	return org.RateLimits(s.deps.Store.Plans()[org.Plan], storage.RateLimits{PerSecond: s.cfg.RateLimit, Burst: s.cfg.RateBurst})
}

// keyLimiter is a token bucket per API key.
type keyLimiter struct {
	limit rate.Limit
	burst int
	clock clock.Clock

	mu      sync.Mutex // guards buckets and swept
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newKeyLimiter(perSecond float64, burst int, c clock.Clock) *keyLimiter {
	return &keyLimiter{limit: rate.Limit(perSecond), burst: burst, clock: c, buckets: map[string]*bucket{}}
}

// allow takes one token for keyID at the limiter's own rate, or says how
// long until one is free.
func (k *keyLimiter) allow(keyID string) time.Duration {
	return k.allowAt(keyID, storage.RateLimits{PerSecond: float64(k.limit), Burst: k.burst})
}

// allowAt is allow at the rate lim: a bucket made at another rate (the
// operator changed it) starts again, full, at the new one.
func (k *keyLimiter) allowAt(keyID string, lim storage.RateLimits) time.Duration {
	now := k.clock.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	// Drop buckets idle long enough to have refilled, so the map stays as
	// small as the set of keys in recent use.
	if now.Sub(k.swept) > time.Minute {
		for id, b := range k.buckets {
			if now.Sub(b.seen) > time.Minute {
				delete(k.buckets, id)
			}
		}
		k.swept = now
	}
	b, ok := k.buckets[keyID]
	if !ok || b.lim.Limit() != rate.Limit(lim.PerSecond) || b.lim.Burst() != lim.Burst {
		// New, or the operator changed the rate: a full bucket at it.
		b = &bucket{lim: rate.NewLimiter(rate.Limit(lim.PerSecond), lim.Burst)}
		k.buckets[keyID] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d
	}
	return 0
}
