package client

import (
	"context"
	"strconv"
)

// WalletService reads the plan, allowance, balance, ledger and usage
// (docs/api.md "Billing").
type WalletService struct{ c *Client }

// Get reads the plan, this month's allowance, the balance and the 20
// newest ledger rows.
func (s *WalletService) Get(ctx context.Context, opts ...CallOption) (*Wallet, error) {
	var w Wallet
	if err := s.c.do(ctx, s.c.newCall(opWallet), &w, opts); err != nil {
		return nil, err
	}
	return &w, nil
}

// LedgerParams pages the ledger: Limit rows (0: 20) before row Before (0:
// from the newest).
type LedgerParams struct {
	Limit  int
	Before uint64
}

// Ledger reads the ledger, newest first, a page at a time.
func (s *WalletService) Ledger(ctx context.Context, p LedgerParams, opts ...CallOption) (*LedgerPage, error) {
	cl := s.c.newCall(opWalletLedger)
	setInt(cl, "limit", p.Limit)
	if p.Before != 0 {
		cl.query.Set("before", strconv.FormatUint(p.Before, 10))
	}
	var page LedgerPage
	if err := s.c.do(ctx, cl, &page, opts); err != nil {
		return nil, err
	}
	return &page, nil
}

// Usage is what completed documents cost month by month, newest first,
// over the last months (0: 12).
func (s *WalletService) Usage(ctx context.Context, months int, opts ...CallOption) ([]MonthUsage, error) {
	cl := s.c.newCall(opWalletUsage)
	setInt(cl, "months", months)
	var u struct {
		Months []MonthUsage `json:"months"`
	}
	if err := s.c.do(ctx, cl, &u, opts); err != nil {
		return nil, err
	}
	return u.Months, nil
}
