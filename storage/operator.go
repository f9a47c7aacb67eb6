package storage

import (
	"fmt"

	"github.com/platen/platen/billing"
)

// Plan names. The catalogue of plans and their terms is in Plans.
const (
	PlanSandbox = "sandbox"
	PlanStarter = "starter"
	PlanGrowth  = "growth"
)

// Plan is the terms an organisation is billed on (docs/design.md "Money").
type Plan struct {
	Name string `json:"name"`
	// MonthlyPages is the allowance per calendar month (UTC).
	MonthlyPages int64 `json:"monthlyPages"`
	// PageRateMicros is the wallet charge per page beyond the allowance; zero
	// with Wallet false means pages beyond the allowance are refused.
	PageRateMicros int64 `json:"pageRateMicros"`
	// Wallet says whether pages beyond the allowance are charged to a wallet.
	Wallet bool `json:"wallet"`
	// Watermark says whether documents carry the sandbox watermark.
	Watermark bool `json:"watermark"`
	// ChromiumPages is how many of a node's Chromium pages an organisation
	// on the plan may hold at once; 0 is the node's own share
	// (--render-pages-per-org), and more than the node has is all of them.
	ChromiumPages int `json:"chromiumPages,omitempty"`
	// RateLimit and RateBurst are each API key's requests a second and
	// burst on the plan; 0 is the node's own (--rate-limit, --rate-burst).
	RateLimit float64 `json:"rateLimit,omitempty"`
	RateBurst int     `json:"rateBurst,omitempty"`
}

// DefaultPlans returns the plans of docs/design.md "Money".
func DefaultPlans() map[string]Plan {
	return map[string]Plan{
		PlanSandbox: {Name: PlanSandbox, MonthlyPages: 100, Watermark: true},
		PlanStarter: {Name: PlanStarter, MonthlyPages: 1000, PageRateMicros: 5000, Wallet: true},
		PlanGrowth:  {Name: PlanGrowth, MonthlyPages: 10000, PageRateMicros: 3000, Wallet: true},
	}
}

// PlanTerms are the terms a charge is made on.
type PlanTerms = billing.Terms

// Terms returns a plan's charging terms.
func (p Plan) Terms() PlanTerms {
	return PlanTerms{MonthlyPages: p.MonthlyPages, PageRateMicros: p.PageRateMicros, Wallet: p.Wallet}
}

// SetOperatorToken stores the hash of the operator token. It is refused when a
// hash is already stored, so concurrent first starts cannot both win.
type SetOperatorToken struct {
	Hash string `json:"hash"`
}

// SetLinkKey stores the key that signs download links, the same on every
// node so a link works on any of them. Refused once a key is stored.
type SetLinkKey struct {
	Key []byte `json:"key"`
}

// Keys of the operator's settings.
//
//	m/operator    SetOperatorToken: the hash of the operator token
//	m/linkkey     SetLinkKey: the key that signs download links
//	p/<plan>      Plan: the operator's terms, over DefaultPlans
var (
	keyOperator = []byte("m/operator")
	keyLinkKey  = []byte("m/linkkey")
	plansPrefix = []byte("p/")
)

func planKey(name string) []byte { return append(append([]byte(nil), plansPrefix...), name...) }

func applySetOperatorToken(t *txn, c *Command) error {
	if _, err := getRaw(t.b, keyOperator); err == nil {
		return fmt.Errorf("%w: operator token already set", ErrConflict)
	}
	t.set(keyOperator, mustEncode(c.SetOperatorToken))
	return t.err
}

func applySetLinkKey(t *txn, c *Command) error {
	if _, err := getRaw(t.b, keyLinkKey); err == nil {
		return fmt.Errorf("%w: link key already set", ErrConflict)
	}
	if len(c.SetLinkKey.Key) < 32 {
		return fmt.Errorf("%w: link key too short", ErrCodec)
	}
	t.set(keyLinkKey, mustEncode(c.SetLinkKey))
	return t.err
}

// applySetPlanTerms stores a plan's terms; the Store's cached catalogue is
// dropped once the batch commits.
func applySetPlanTerms(t *txn, c *Command) error {
	p := c.SetPlanTerms
	if p.Name == "" || p.MonthlyPages < 0 || p.PageRateMicros < 0 {
		return fmt.Errorf("%w: plan terms", ErrCodec)
	}
	t.set(planKey(p.Name), mustEncode(p))
	t.wakes.plans = true
	return t.err
}

// OperatorTokenHash returns the stored hash of the operator token.
func (s *Store) OperatorTokenHash() (string, error) {
	var t SetOperatorToken
	if err := getRecord(s.db, keyOperator, &t); err != nil {
		return "", err
	}
	return t.Hash, nil
}

// LinkKey returns the key that signs download links.
func (s *Store) LinkKey() ([]byte, error) {
	var k SetLinkKey
	if err := getRecord(s.db, keyLinkKey, &k); err != nil {
		return nil, err
	}
	return k.Key, nil
}

// Plans returns the plan catalogue: DefaultPlans with the operator's terms
// over them. It is kept in memory and rebuilt when the terms change.
func (s *Store) Plans() map[string]Plan {
	if p := s.plans.Load(); p != nil {
		return *p
	}
	return s.loadPlans()
}

// loadPlans reads the catalogue from the database and caches it.
func (s *Store) loadPlans() map[string]Plan {
	plans := DefaultPlans()
	_ = s.scan(plansPrefix, 0, func(_, v []byte) error {
		var p Plan
		if decode(v, &p) == nil {
			plans[p.Name] = p
		}
		return nil
	})
	s.plans.Store(&plans)
	return plans
}
