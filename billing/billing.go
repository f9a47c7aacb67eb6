package billing

import (
	"fmt"
	"time"

	"github.com/platen/platen/internal/fault"
)

// Refusals of Hold. Each is a fault.ErrPaymentRequired, which the transport
// answers with 402 PAYMENT_REQUIRED.
var (
	// ErrWalletBelowZero is returned while an overrun has left a wallet plan's
	// balance below zero: nothing more is accepted until a top-up.
	ErrWalletBelowZero = fmt.Errorf("%w: the wallet is below zero", fault.ErrPaymentRequired)
	// ErrAllowanceUsed is returned when a plan without a wallet has too few
	// pages of this month's allowance left for a document.
	ErrAllowanceUsed = fmt.Errorf("%w: this month's allowance is used", fault.ErrPaymentRequired)
	// ErrWalletShort is returned when the pages beyond the allowance cost more
	// than the wallet's balance not held by other documents.
	ErrWalletShort = fmt.Errorf("%w: the wallet is short", fault.ErrPaymentRequired)
)

func init() {
	fault.Register("billing.wallet_below_zero", ErrWalletBelowZero)
	fault.Register("billing.allowance_used", ErrAllowanceUsed)
	fault.Register("billing.wallet_short", ErrWalletShort)
}

// Terms are what a plan charges: a monthly page allowance, and, with a
// wallet, a rate for each page beyond it. Its JSON is part of the raft
// log's completion commands.
type Terms struct {
	// MonthlyPages is the allowance per calendar month (UTC).
	MonthlyPages int64 `json:"monthlyPages"`
	// PageRateMicros is the wallet's charge for a page beyond the allowance.
	PageRateMicros int64 `json:"pageRateMicros"`
	// Wallet says whether pages beyond the allowance are charged to a
	// wallet; without one they are refused at Hold.
	Wallet bool `json:"wallet"`
}

// Account is where an organisation's billing stands.
type Account struct {
	// Period is the calendar month (UTC, as Period writes it) PagesUsed
	// counts in; a count for an earlier month counts as zero.
	Period string
	// PagesUsed is the allowance pages charged in Period.
	PagesUsed int64
	// HeldPages and HeldMicros are what documents still rendering have
	// reserved against the allowance and the wallet.
	HeldPages, HeldMicros int64
	// BalanceMicros is the wallet's balance; an overrun may leave it below
	// zero.
	BalanceMicros int64
}

// Split is how a document's pages are paid for: pages from the allowance,
// and pages from the wallet at Micros in all. A hold is a Split of the
// estimated pages, a charge one of the pages rendered.
type Split struct {
	AllowancePages int64 `json:"allowancePages"`
	WalletPages    int64 `json:"walletPages"`
	Micros         int64 `json:"micros"`
}

// Period is the calendar month (UTC) of t, as an account's Period is
// written: allowances are monthly, and a new month starts from zero.
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

// UsedIn returns the allowance pages used in the month of at: zero when the
// account's count is for another month.
func (a Account) UsedIn(at time.Time) int64 {
	if a.Period != Period(at) {
		return 0
	}
	return a.PagesUsed
}

// Price splits pages at time at between what the allowance of at's month has
// left (neither used nor held by documents still rendering) and the wallet,
// at the plan's rate. It refuses nothing: Hold and Charge decide what a
// split means.
func Price(a Account, t Terms, pages int64, at time.Time) Split {
	left := max(t.MonthlyPages-a.UsedIn(at)-a.HeldPages, 0)
	s := Split{AllowancePages: min(pages, left)}
	s.WalletPages = pages - s.AllowancePages
	s.Micros = s.WalletPages * t.PageRateMicros
	return s
}

// Hold prices a new document at its estimated pages (at least one) before it
// is rendered, or refuses it when nothing can pay: a wallet plan whose
// balance an overrun took below zero; a plan without a wallet whose
// allowance is short; a wallet whose balance, less what other documents
// hold, is short of the pages beyond the allowance. plan names the plan in a
// refusal. The org actor adds the split to the account's holds.
func Hold(a Account, plan string, t Terms, estimate int64, at time.Time) (Split, error) {
	if t.Wallet && a.BalanceMicros < 0 {
		return Split{}, fmt.Errorf("%w by %d micros; top it up to generate again", ErrWalletBelowZero, -a.BalanceMicros)
	}
	s := Price(a, t, max(estimate, 1), at)
	if s.WalletPages == 0 {
		return s, nil
	}
	if !t.Wallet {
		return Split{}, fmt.Errorf("%w on the %s plan (%d pages a month); this document needs %d more. Move to a paid plan, or wait for next month",
			ErrAllowanceUsed, plan, t.MonthlyPages, s.WalletPages)
	}
	if free := a.BalanceMicros - a.HeldMicros; free < s.Micros {
		return Split{}, fmt.Errorf("%w: this document needs about %d pages beyond the monthly allowance, %d micros, and the wallet has %d available; top it up",
			ErrWalletShort, s.WalletPages, s.Micros, max(free, 0))
	}
	return s, nil
}

// Charge prices a finished document's pages at time at, on an account whose
// hold for the document is already released: so a document finishing early
// never takes allowance promised to another still rendering, and the wallet
// pays only for what the allowance cannot cover. It never refuses, because a
// finished render is never thrown away: a plan without a wallet counts every
// page against the allowance, over it if need be, and a document longer than
// its estimate may take the wallet below zero (Hold then refuses the next).
func Charge(a Account, t Terms, pages int64, at time.Time) Split {
	if !t.Wallet {
		return Split{AllowancePages: pages}
	}
	return Price(a, t, pages, at)
}

// After returns the account once a charge s made at time at is taken: the
// allowance of at's month used by s's allowance pages (a new month's count
// starts from zero) and the wallet less s's micros.
func (a Account) After(s Split, at time.Time) Account {
	if p := Period(at); a.Period != p {
		a.Period, a.PagesUsed = p, 0
	}
	a.PagesUsed += s.AllowancePages
	a.BalanceMicros -= s.Micros
	return a
}
