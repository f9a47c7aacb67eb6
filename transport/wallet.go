package transport

import (
	"net/http"
	"strconv"
	"time"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// walletView is the answer of GET /v1/wallet.
type walletView struct {
	Plan      storage.Plan  `json:"plan"`
	Period    periodView    `json:"period"`
	Allowance allowanceView `json:"allowance"`
	// Currency is the ISO 4217 code the Micros amounts are in.
	Currency      string `json:"currency"`
	BalanceMicros int64  `json:"balanceMicros"`
	// HeldMicros is reserved by documents still rendering.
	HeldMicros int64                 `json:"heldMicros"`
	Ledger     []storage.LedgerEntry `json:"ledger"`
}

type periodView struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

type allowanceView struct {
	Pages     int64 `json:"pages"`
	UsedPages int64 `json:"usedPages"`
	LeftPages int64 `json:"leftPages"`
	// HeldPages is reserved by documents still rendering.
	HeldPages int64 `json:"heldPages"`
}

// walletLedgerRows is how many recent ledger rows GET /v1/wallet shows.
const walletLedgerRows = 20

func (s *Server) wallet(r *request) error {
	now := s.deps.Clock.Now()
	plan := s.deps.Store.Plans()[r.org.Plan]
	used := r.org.PagesUsedIn(now)
	start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	rows, err := s.deps.Store.LedgerRecent(r.org.ID, walletLedgerRows)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []storage.LedgerEntry{}
	}
	return r.ok(http.StatusOK, walletView{
		Plan:          plan,
		Period:        periodView{Start: start, End: start.AddDate(0, 1, 0)},
		Allowance:     allowanceView{Pages: plan.MonthlyPages, UsedPages: used, LeftPages: max(plan.MonthlyPages-used, 0), HeldPages: r.org.HeldPages},
		Currency:      s.app.WalletCurrency(),
		BalanceMicros: r.org.BalanceMicros,
		HeldMicros:    r.org.HeldMicros,
		Ledger:        rows,
	}, "")
}

// walletUsage answers GET /v1/wallet/usage: what completed documents cost,
// month by month (app.UsageByMonth).
func (s *Server) walletUsage(r *request) error {
	months, err := queryInt(r, "months", 12)
	if err != nil {
		return err
	}
	usage, err := s.app.UsageByMonth(r.org.ID, months, s.deps.Clock.Now())
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"months": usage}, "")
}

// queryInt reads a whole-number query parameter, def when it is absent. The
// range is the use case's to check.
func queryInt(r *request, name string, def int) (int, error) {
	raw := string(r.QueryArgs().Peek(name))
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, fault.Invalid(name, "must be a whole number")
	}
	return n, nil
}

// walletLedger answers GET /v1/wallet/ledger: the ledger a page at a time,
// newest first, for owners whose wallet has more than GET /v1/wallet's rows.
func (s *Server) walletLedger(r *request) error {
	limit, err := listLimit(r)
	if err != nil {
		return err
	}
	var before uint64
	if raw := string(r.QueryArgs().Peek("before")); raw != "" {
		if before, err = strconv.ParseUint(raw, 10, 64); err != nil || before == 0 {
			return fault.Invalid("before", "must be the nextBefore of the previous page")
		}
	}
	page, err := s.app.Ledger(r.org.ID, before, limit)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, page, "")
}
