package chromium

import (
	"context"
	"fmt"
	"sync"

	"github.com/platen/platen/render"
)

// shares holds each organisation to its share of the pages: an
// organisation may hold at most its share at once, and its further renders
// wait, in the order they came, for one of its own pages to come back,
// while other organisations' renders take the pages it does not hold. A
// node's pages are few (one per core), and a slow document keeps one for
// up to the render timeout: without a share, one organisation sending two
// slow documents stalls every Chromium document on the node.
//
// A page counts against its organisation from the moment it is granted
// until it is back in the pool, healed if its print failed: a render that
// gave up at its deadline still holds its page while the page is replaced.
type shares struct {
	// def is the share of a render that names none (Job.OrgPages 0), and
	// pages the pool's size, which no share exceeds.
	def, pages int

	mu   sync.Mutex // guards orgs
	orgs map[string]*orgShare
}

// orgShare is one organisation's pages in use and its renders waiting.
type orgShare struct {
	held    int
	waiting []*shareWaiter // in the order they came
}

// shareWaiter is a render waiting for its organisation's share; granted is
// closed when it is given a place.
type shareWaiter struct {
	share   int
	granted chan struct{}
}

func newShares(def, pages int) *shares {
	return &shares{def: def, pages: pages, orgs: map[string]*orgShare{}}
}

// of is the share of a render asking for n (0: the default), never more
// than the pool and never less than one page.
func (s *shares) of(n int) int {
	if n <= 0 {
		n = s.def
	}
	return max(1, min(n, s.pages))
}

// acquire waits until org holds fewer pages than its share n, then counts
// one more for it. A render with no organisation (a starter's thumbnail,
// the CLI) is not held to a share. It gives up when ctx ends.
func (s *shares) acquire(ctx context.Context, org string, n int) error {
	if org == "" {
		return nil
	}
	share := s.of(n)
	s.mu.Lock()
	o := s.orgs[org]
	if o == nil {
		o = &orgShare{}
		s.orgs[org] = o
	}
	if o.held < share && len(o.waiting) == 0 {
		o.held++
		s.mu.Unlock()
		return nil
	}
	w := &shareWaiter{share: share, granted: make(chan struct{})}
	o.waiting = append(o.waiting, w)
	s.mu.Unlock()
	select {
	case <-w.granted:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range o.waiting {
		if x == w {
			o.waiting = append(o.waiting[:i], o.waiting[i+1:]...)
			s.wakeLocked(org, o)
			return fmt.Errorf("%w: waited for a page: its organisation holds its share of %d page(s): %v", render.ErrRender, share, ctx.Err())
		}
	}
	// Granted as the context ended: the place is taken, give it back.
	s.releaseLocked(org, o)
	return fmt.Errorf("%w: waited for a page: %v", render.ErrRender, ctx.Err())
}

// release gives back a page acquire counted for org.
func (s *shares) release(org string) {
	if org == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(org, s.orgs[org])
}

func (s *shares) releaseLocked(org string, o *orgShare) {
	if o == nil {
		return
	}
	o.held--
	s.wakeLocked(org, o)
}

// wakeLocked grants places to org's first waiters while it holds fewer
// than their share, and forgets an organisation that holds and waits for
// nothing; s.mu is held.
func (s *shares) wakeLocked(org string, o *orgShare) {
	for len(o.waiting) > 0 && o.held < o.waiting[0].share {
		w := o.waiting[0]
		o.waiting = o.waiting[1:]
		o.held++
		close(w.granted)
	}
	if o.held <= 0 && len(o.waiting) == 0 {
		delete(s.orgs, org)
	}
}

// count is how many pages org holds and how many of its renders wait, for
// tests.
func (s *shares) count(org string) (held, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.orgs[org]; o != nil {
		return o.held, len(o.waiting)
	}
	return 0, 0
}
