package billing

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/platen/platen/internal/fault"
)

var (
	nov     = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	dec     = time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC)
	starter = Terms{MonthlyPages: 10, PageRateMicros: 5000, Wallet: true}
	sandbox = Terms{MonthlyPages: 100}
)

func TestHold(t *testing.T) {
	for _, c := range []struct {
		name     string
		a        Account
		t        Terms
		estimate int64
		want     Split
		err      error
	}{
		{"allowance exactly used up by the document", Account{Period: "2026-11", PagesUsed: 7}, starter, 3,
			Split{AllowancePages: 3}, nil},
		{"one page more goes to the wallet", Account{Period: "2026-11", PagesUsed: 7, BalanceMicros: 5000}, starter, 4,
			Split{AllowancePages: 3, WalletPages: 1, Micros: 5000}, nil},
		{"an estimate of zero holds one page", Account{}, starter, 0, Split{AllowancePages: 1}, nil},
		{"allowance partly held by other documents", Account{Period: "2026-11", PagesUsed: 4, HeldPages: 5, BalanceMicros: 10000}, starter, 3,
			Split{AllowancePages: 1, WalletPages: 2, Micros: 10000}, nil},
		{"holds beyond the allowance leave none", Account{Period: "2026-11", PagesUsed: 8, HeldPages: 5, BalanceMicros: 5000}, starter, 1,
			Split{WalletPages: 1, Micros: 5000}, nil},
		{"wallet at zero refuses a page beyond the allowance", Account{Period: "2026-11", PagesUsed: 10}, starter, 1,
			Split{}, ErrWalletShort},
		{"wallet at zero still takes pages the allowance covers", Account{Period: "2026-11", PagesUsed: 9}, starter, 1,
			Split{AllowancePages: 1}, nil},
		{"wallet exactly covering", Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: 15000}, starter, 3,
			Split{WalletPages: 3, Micros: 15000}, nil},
		{"wallet one micro short", Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: 14999}, starter, 3,
			Split{}, ErrWalletShort},
		{"wallet held by other documents", Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: 15000, HeldMicros: 5000}, starter, 3,
			Split{}, ErrWalletShort},
		{"wallet below zero refuses even what the allowance covers", Account{BalanceMicros: -1}, starter, 1,
			Split{}, ErrWalletBelowZero},
		{"sandbox within its allowance", Account{Period: "2026-11", PagesUsed: 99}, sandbox, 1,
			Split{AllowancePages: 1}, nil},
		{"sandbox over its allowance", Account{Period: "2026-11", PagesUsed: 99}, sandbox, 2,
			Split{}, ErrAllowanceUsed},
		{"sandbox held to its allowance", Account{Period: "2026-11", PagesUsed: 50, HeldPages: 50}, sandbox, 1,
			Split{}, ErrAllowanceUsed},
		{"a new month starts the allowance again", Account{Period: "2026-10", PagesUsed: 100}, sandbox, 100,
			Split{AllowancePages: 100}, nil},
		{"a new month does not release holds", Account{Period: "2026-10", PagesUsed: 100, HeldPages: 100}, sandbox, 1,
			Split{}, ErrAllowanceUsed},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Hold(c.a, "test", c.t, c.estimate, nov)
			if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("Hold = %+v, %v; want %+v, %v", got, err, c.want, c.err)
			}
			if err != nil && !errors.Is(err, fault.ErrPaymentRequired) {
				t.Fatalf("a refusal that is not payment required: %v", err)
			}
		})
	}
}

func TestCharge(t *testing.T) {
	for _, c := range []struct {
		name  string
		a     Account
		t     Terms
		pages int64
		at    time.Time
		want  Split
		after Account
	}{
		{"allowance exactly used up", Account{Period: "2026-11", PagesUsed: 7}, starter, 3, nov,
			Split{AllowancePages: 3}, Account{Period: "2026-11", PagesUsed: 10}},
		{"one page more goes to the wallet", Account{Period: "2026-11", PagesUsed: 7, BalanceMicros: 5000}, starter, 4, nov,
			Split{AllowancePages: 3, WalletPages: 1, Micros: 5000}, Account{Period: "2026-11", PagesUsed: 10}},
		{"allowance held by other documents is not taken", Account{Period: "2026-11", PagesUsed: 4, HeldPages: 5, BalanceMicros: 10000}, starter, 3, nov,
			Split{AllowancePages: 1, WalletPages: 2, Micros: 10000}, Account{Period: "2026-11", PagesUsed: 5, HeldPages: 5}},
		{"wallet at zero still charged, below zero", Account{Period: "2026-11", PagesUsed: 10}, starter, 2, nov,
			Split{WalletPages: 2, Micros: 10000}, Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: -10000}},
		{"wallet exactly covering", Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: 15000}, starter, 3, nov,
			Split{WalletPages: 3, Micros: 15000}, Account{Period: "2026-11", PagesUsed: 10}},
		{"sandbox over its allowance counts every page", Account{Period: "2026-11", PagesUsed: 99}, sandbox, 5, nov,
			Split{AllowancePages: 5}, Account{Period: "2026-11", PagesUsed: 104}},
		{"sandbox with holds still counts every page", Account{Period: "2026-11", PagesUsed: 100, HeldPages: 3}, sandbox, 2, nov,
			Split{AllowancePages: 2}, Account{Period: "2026-11", PagesUsed: 102, HeldPages: 3}},
		{"a new month resets usage", Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: 100}, starter, 1, dec,
			Split{AllowancePages: 1}, Account{Period: "2026-12", PagesUsed: 1, BalanceMicros: 100}},
		{"a new month starts even when nothing is used", Account{Period: "2026-11", PagesUsed: 100}, sandbox, 0, dec,
			Split{}, Account{Period: "2026-12"}},
		{"a first charge sets the month", Account{}, starter, 12, nov,
			Split{AllowancePages: 10, WalletPages: 2, Micros: 10000}, Account{Period: "2026-11", PagesUsed: 10, BalanceMicros: -10000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Charge(c.a, c.t, c.pages, c.at)
			if got != c.want {
				t.Fatalf("Charge = %+v; want %+v", got, c.want)
			}
			if after := c.a.After(got, c.at); after != c.after {
				t.Fatalf("After = %+v; want %+v", after, c.after)
			}
		})
	}
}

// TestAnOverrunIsChargedAndStopsTheNext: a document held at its estimate
// renders longer; its charge takes the wallet below zero by that document,
// and the next hold is refused until a top-up.
func TestAnOverrunIsChargedAndStopsTheNext(t *testing.T) {
	terms := Terms{MonthlyPages: 0, PageRateMicros: 100, Wallet: true}
	a := Account{BalanceMicros: 100}
	h, err := Hold(a, "starter", terms, 1, nov)
	if err != nil || h != (Split{WalletPages: 1, Micros: 100}) {
		t.Fatalf("hold %+v, %v", h, err)
	}
	a.HeldPages, a.HeldMicros = a.HeldPages+h.AllowancePages, a.HeldMicros+h.Micros
	// Rendered: five pages, not one. The hold is released, then the pages charged.
	a.HeldPages, a.HeldMicros = a.HeldPages-h.AllowancePages, a.HeldMicros-h.Micros
	c := Charge(a, terms, 5, nov)
	if c != (Split{WalletPages: 5, Micros: 500}) {
		t.Fatalf("charge %+v", c)
	}
	a = a.After(c, nov)
	if a.BalanceMicros != -400 {
		t.Fatalf("balance %d after the overrun, want -400", a.BalanceMicros)
	}
	if _, err := Hold(a, "starter", terms, 1, nov); !errors.Is(err, ErrWalletBelowZero) {
		t.Fatalf("a hold with the wallet below zero: %v", err)
	}
	a.BalanceMicros += 500 // a top-up
	if _, err := Hold(a, "starter", terms, 1, nov); err != nil {
		t.Fatalf("a hold after the top-up: %v", err)
	}
}

// The pricing as it was written before this package existed, in the org
// actor (hold) and the state machine (Settle): raft logs written then are
// replayed now, so every answer must stay the same.
func formerHold(a Account, t Terms, estimate int64, now time.Time) (Split, bool) {
	pages := max(estimate, 1)
	if t.Wallet && a.BalanceMicros < 0 {
		return Split{}, false
	}
	used := a.PagesUsed
	if a.Period != now.UTC().Format("2006-01") {
		used = 0
	}
	left := max(t.MonthlyPages-used-a.HeldPages, 0)
	h := Split{AllowancePages: min(pages, left)}
	beyond := pages - h.AllowancePages
	if beyond == 0 {
		return h, true
	}
	if !t.Wallet {
		return Split{}, false
	}
	h.Micros = beyond * t.PageRateMicros
	if free := a.BalanceMicros - a.HeldMicros; free < h.Micros {
		return Split{}, false
	}
	return h, true
}

func formerSettle(o Account, pages int64, t Terms, at time.Time) (Split, Account) {
	if p := at.UTC().Format("2006-01"); o.Period != p {
		o.Period, o.PagesUsed = p, 0
	}
	var ch Split
	if !t.Wallet {
		ch.AllowancePages = pages
	} else {
		ch.AllowancePages = min(pages, max(t.MonthlyPages-o.PagesUsed-o.HeldPages, 0))
		ch.WalletPages = pages - ch.AllowancePages
	}
	o.PagesUsed += ch.AllowancePages
	ch.Micros = ch.WalletPages * t.PageRateMicros
	o.BalanceMicros -= ch.Micros
	return ch, o
}

func TestSameAnswersAsTheFormerPricing(t *testing.T) {
	small := []int64{0, 1, 2, 9, 10, 11}
	signed := []int64{-5000, -1, 0, 1, 4999, 5000, 10000, 15001}
	n := 0
	for _, wallet := range []bool{false, true} {
		for _, monthly := range []int64{0, 1, 10} {
			for _, rate := range []int64{0, 5000} {
				terms := Terms{MonthlyPages: monthly, PageRateMicros: rate, Wallet: wallet}
				for _, period := range []string{"", "2026-10", "2026-11"} {
					for _, used := range small {
						for _, held := range small {
							for _, balance := range signed {
								for _, heldMicros := range []int64{0, 5000} {
									a := Account{Period: period, PagesUsed: used, HeldPages: held, BalanceMicros: balance, HeldMicros: heldMicros}
									for _, pages := range append(small, -1) {
										n++
										label := fmt.Sprintf("%+v %+v %d pages", a, terms, pages)
										wantH, ok := formerHold(a, terms, pages, nov)
										gotH, err := Hold(a, "test", terms, pages, nov)
										if ok != (err == nil) || (ok && gotH.AllowancePages != wantH.AllowancePages) || (ok && gotH.Micros != wantH.Micros) {
											t.Fatalf("%s: Hold = %+v, %v; was %+v, %v", label, gotH, err, wantH, ok)
										}
										wantC, wantA := formerSettle(a, pages, terms, nov)
										gotC := Charge(a, terms, pages, nov)
										if gotC != wantC || a.After(gotC, nov) != wantA {
											t.Fatalf("%s: Charge = %+v then %+v; was %+v then %+v", label, gotC, a.After(gotC, nov), wantC, wantA)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if n < 100000 {
		t.Fatalf("only %d cases", n)
	}
}
