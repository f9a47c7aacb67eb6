package transport

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/storage"
)

// orgView is an organisation as the operator API shows it.
type orgView struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	Plan          string    `json:"plan"`
	BalanceMicros int64     `json:"balanceMicros"`
	CreatedAt     time.Time `json:"createdAt"`
	RateLimit     float64   `json:"rateLimit,omitempty"`
	RateBurst     int       `json:"rateBurst,omitempty"`
}

func viewOrg(o storage.Org) orgView {
	return orgView{ID: o.ID, Name: o.Name, Plan: o.Plan, BalanceMicros: o.BalanceMicros, CreatedAt: o.CreatedAt, RateLimit: o.RateLimit, RateBurst: o.RateBurst}
}

// keyView is an API key without its value.
type keyView struct {
	ID        string     `json:"id"`
	OrgID     string     `json:"orgId"`
	Name      string     `json:"name"`
	Scopes    []string   `json:"scopes"`
	Prefix    string     `json:"prefix"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
	// Key is the key's value, present only in the answer that created it.
	Key string `json:"key,omitempty"`
}

func viewKey(k storage.APIKey) keyView {
	return keyView{ID: k.ID, OrgID: k.OrgID, Name: k.Name, Scopes: k.Scopes, Prefix: k.Prefix, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt}
}

// orgID returns the :orgId parameter of an existing organisation.
func (s *Server) orgID(r *request) (string, error) {
	id := r.param("orgId")
	if !ids.HasKind(id, ids.Org) {
		return "", fmt.Errorf("%w: organisation %q", fault.ErrNotFound, id)
	}
	if _, err := s.deps.Store.Org(id); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return "", fmt.Errorf("%w: organisation %s", fault.ErrNotFound, id)
		}
		return "", err
	}
	return id, nil
}

func (s *Server) adminCreateOrg(r *request) error {
	var in struct {
		Name string `json:"name"`
		Plan string `json:"plan"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	if in.Plan == "" {
		in.Plan = storage.PlanSandbox
	}
	id := ids.New(ids.Org, s.deps.Clock.Now())
	v, err := askOrg(r, id, actors.CreateOrg{Name: in.Name, Plan: in.Plan})
	if err != nil {
		return err
	}
	return r.ok(http.StatusCreated, viewOrg(v), "organisation created")
}

func (s *Server) adminListOrgs(r *request) error {
	orgs, err := s.deps.Store.Orgs()
	if err != nil {
		return err
	}
	out := make([]orgView, len(orgs))
	for i, o := range orgs {
		out[i] = viewOrg(o)
	}
	return r.ok(http.StatusOK, map[string]any{"items": out}, fmt.Sprintf("%d organisations", len(out)))
}

func (s *Server) adminGetOrg(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	org, err := s.deps.Store.Org(id)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewOrg(org), "")
}

func (s *Server) adminPatchOrg(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	var in struct {
		Plan      string   `json:"plan"`
		RateLimit *float64 `json:"rateLimit"`
		RateBurst *int     `json:"rateBurst"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	if in.Plan == "" && in.RateLimit == nil && in.RateBurst == nil {
		return fault.Invalid("plan", "send a plan, a rateLimit or a rateBurst")
	}
	var v storage.Org
	var said []string
	if in.RateLimit != nil || in.RateBurst != nil {
		org, err := s.deps.Store.Org(id)
		if err != nil {
			return err
		}
		limit, burst := org.RateLimit, org.RateBurst
		if in.RateLimit != nil {
			limit = *in.RateLimit
		}
		if in.RateBurst != nil {
			burst = *in.RateBurst
		}
		// Checked before the plan changes, so a refusal changes nothing.
		if err := actors.CheckRateLimit(limit, burst); err != nil {
			return err
		}
		if in.Plan != "" {
			if _, err := askOrg(r, id, actors.SetPlan{Plan: in.Plan}); err != nil {
				return err
			}
			said = append(said, "plan changed to "+in.Plan)
		}
		if v, err = askOrg(r, id, actors.SetRateLimit{RateLimit: limit, RateBurst: burst}); err != nil {
			return err
		}
		lim := s.rateLimits(v)
		said = append(said, fmt.Sprintf("each key may now make %g requests a second with bursts of %d", lim.PerSecond, lim.Burst))
	} else {
		var err error
		if v, err = askOrg(r, id, actors.SetPlan{Plan: in.Plan}); err != nil {
			return err
		}
		said = append(said, "plan changed to "+in.Plan)
	}
	return r.ok(http.StatusOK, viewOrg(v), strings.Join(said, "; "))
}

func (s *Server) adminCreateKey(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	var in struct {
		Name   string   `json:"name"`
		Scopes []string `json:"scopes"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	nk, err := askOrg(r, id, actors.CreateKey{Name: in.Name, Scopes: in.Scopes, AnyScope: true})
	if err != nil {
		return err
	}
	out := viewKey(nk.Key)
	out.Key = nk.Secret
	return r.ok(http.StatusCreated, out, "key created; store its value now, it is not shown again")
}

func (s *Server) adminListKeys(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	keys, err := s.deps.Store.OrgKeys(id)
	if err != nil {
		return err
	}
	out := make([]keyView, len(keys))
	for i, k := range keys {
		out[i] = viewKey(k)
	}
	return r.ok(http.StatusOK, map[string]any{"items": out}, fmt.Sprintf("%d keys", len(out)))
}

func (s *Server) adminRevokeKey(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	v, err := askOrg(r, id, actors.RevokeKey{KeyID: r.param("keyId"), AnyScope: true})
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewKey(v), "key revoked")
}

func (s *Server) adminCredit(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	var in struct {
		AmountMicros int64  `json:"amountMicros"`
		Reference    string `json:"reference"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	c, err := askOrg(r, id, actors.CreditWallet{AmountMicros: in.AmountMicros, Reference: in.Reference})
	if err != nil {
		return err
	}
	body := map[string]any{"entry": c.Entry, "balanceMicros": c.Entry.BalanceAfterMicros, "replayed": c.Replayed}
	if c.Replayed {
		org, err := s.deps.Store.Org(id)
		if err != nil {
			return err
		}
		body["balanceMicros"] = org.BalanceMicros
		return r.ok(http.StatusOK, body, "this reference was already credited; nothing new was written")
	}
	return r.ok(http.StatusCreated, body, fmt.Sprintf("credited %d micros", in.AmountMicros))
}

func (s *Server) adminCluster(r *request) error {
	return r.ok(http.StatusOK, s.deps.Cluster(), "")
}

func (s *Server) adminRemoveNode(r *request) error {
	if s.deps.RemoveNode == nil {
		return fmt.Errorf("%w: this node runs alone, not in a cluster", fault.ErrInvalid)
	}
	id := r.param("nodeId")
	if err := s.deps.RemoveNode(id); err != nil {
		return err
	}
	return r.ok(http.StatusOK, s.deps.Cluster(), "node "+id+" removed")
}

func (s *Server) adminPlans(r *request) error {
	plans := s.deps.Store.Plans()
	names := make([]string, 0, len(plans))
	for n := range plans {
		names = append(names, n)
	}
	sort.Strings(names)
	items := make([]storage.Plan, len(names))
	for i, n := range names {
		items[i] = plans[n]
	}
	return r.ok(http.StatusOK, map[string]any{"items": items}, "")
}

// adminPutPlan sets a plan's terms. New terms apply to charges made from then
// on; documents already settled keep what they cost.
func (s *Server) adminPutPlan(r *request) error {
	name := r.param("plan")
	if err := actors.CheckSlug("plan", name); err != nil {
		return err
	}
	var in struct {
		MonthlyPages   *int64   `json:"monthlyPages"`
		PageRateMicros *int64   `json:"pageRateMicros"`
		Wallet         *bool    `json:"wallet"`
		Watermark      *bool    `json:"watermark"`
		ChromiumPages  *int     `json:"chromiumPages"`
		RateLimit      *float64 `json:"rateLimit"`
		RateBurst      *int     `json:"rateBurst"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	p, ok := s.deps.Store.Plans()[name]
	if !ok {
		p = storage.Plan{Name: name}
	}
	if in.MonthlyPages != nil {
		p.MonthlyPages = *in.MonthlyPages
	}
	if in.PageRateMicros != nil {
		p.PageRateMicros = *in.PageRateMicros
	}
	if in.Wallet != nil {
		p.Wallet = *in.Wallet
	}
	if in.Watermark != nil {
		p.Watermark = *in.Watermark
	}
	if in.ChromiumPages != nil {
		p.ChromiumPages = *in.ChromiumPages
	}
	if in.RateLimit != nil {
		p.RateLimit = *in.RateLimit
	}
	if in.RateBurst != nil {
		p.RateBurst = *in.RateBurst
	}
	if err := actors.CheckRateLimit(p.RateLimit, p.RateBurst); err != nil {
		return err
	}
	switch {
	case p.MonthlyPages < 0 || p.MonthlyPages > 1e9:
		return fault.Invalid("monthlyPages", "must be from 0 to 1000000000")
	case p.PageRateMicros < 0 || p.PageRateMicros > 1e9:
		return fault.Invalid("pageRateMicros", "must be from 0 to 1000000000")
	case p.ChromiumPages < 0 || p.ChromiumPages > 1000:
		return fault.Invalid("chromiumPages", "must be from 0 (the node's share) to 1000")
	case p.Wallet && p.PageRateMicros == 0:
		return fault.Invalid("pageRateMicros", "a plan with a wallet charges a rate above 0")
	}
	if err := s.deps.SetPlanTerms(p); err != nil {
		return err
	}
	return r.ok(http.StatusOK, p, "plan terms stored; they apply to charges from now on")
}

// adminLedger lists an organisation's whole ledger, oldest first, for audits.
func (s *Server) adminLedger(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	limit := 1000
	if raw := string(r.QueryArgs().Peek("limit")); raw != "" {
		if limit, err = strconv.Atoi(raw); err != nil || limit < 1 || limit > 10000 {
			return fault.Invalid("limit", "must be from 1 to 10000")
		}
	}
	var after uint64
	if raw := string(r.QueryArgs().Peek("after")); raw != "" {
		if after, err = strconv.ParseUint(raw, 10, 64); err != nil {
			return fault.Invalid("after", "must be a ledger sequence number")
		}
	}
	rows, err := s.deps.Store.LedgerAfter(id, after, limit)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []storage.LedgerEntry{}
	}
	var next *uint64
	if len(rows) == limit {
		n := rows[len(rows)-1].Seq
		next = &n
	}
	org, err := s.deps.Store.Org(id)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"items": rows, "nextAfter": next, "balanceMicros": org.BalanceMicros,
		"heldMicros": org.HeldMicros, "heldPages": org.HeldPages, "usagePeriod": org.UsagePeriod, "pagesUsed": org.PagesUsed}, "")
}
