package app

import (
	"time"

	"github.com/platen/platen/billing"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// The windows the console's aggregates may ask for: enough for a chart and a
// year of bills, small enough that one read of the org's index answers.
const (
	MaxStatsDays   = 90
	MaxUsageMonths = 24
)

// DayCount is how many of an organisation's documents were created on one
// day (UTC), by where they stand now.
type DayCount struct {
	// Day is the date, YYYY-MM-DD.
	Day       string `json:"day"`
	Completed int    `json:"completed"`
	Failed    int    `json:"failed"`
	// Pending is queued or rendering.
	Pending int `json:"pending"`
}

// DocumentStats is documents a day over the last days, oldest day first,
// every day present (zeros included), and their totals.
type DocumentStats struct {
	Days  []DayCount `json:"days"`
	Total DayCount   `json:"total"`
}

// DocumentStats counts an organisation's documents a day over the days
// (UTC) ending today, from the org's document index: the dashboard's chart
// without sending every record to the browser.
func (a *App) DocumentStats(orgID string, days int, now time.Time) (DocumentStats, error) {
	if days < 1 || days > MaxStatsDays {
		return DocumentStats{}, fault.Invalid("days", "must be from 1 to %d", MaxStatsDays)
	}
	now = now.UTC() // days are UTC days, whatever the clock's zone
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	start := today.AddDate(0, 0, -(days - 1))
	out := DocumentStats{Days: make([]DayCount, days), Total: DayCount{Day: "total"}}
	index := map[string]int{}
	for i := range out.Days {
		day := start.AddDate(0, 0, i).Format(time.DateOnly)
		out.Days[i].Day, index[day] = day, i
	}
	err := a.deps.Store.DocumentsSince(orgID, start, func(d storage.Document) error {
		i, ok := index[d.CreatedAt.UTC().Format(time.DateOnly)]
		if !ok { // created after now's day ended: a clock ahead of ours
			return nil
		}
		c := &out.Days[i]
		switch d.Status {
		case storage.StatusCompleted:
			c.Completed++
			out.Total.Completed++
		case storage.StatusFailed:
			c.Failed++
			out.Total.Failed++
		default:
			c.Pending++
			out.Total.Pending++
		}
		return nil
	})
	return out, err
}

// MonthUsage is what an organisation's completed documents cost in one
// calendar month (UTC): pages taken from the allowance, pages paid from the
// wallet and what the wallet paid.
type MonthUsage struct {
	// Month is YYYY-MM, as billing.Period writes it.
	Month          string `json:"month"`
	Documents      int    `json:"documents"`
	AllowancePages int64  `json:"allowancePages"`
	WalletPages    int64  `json:"walletPages"`
	AmountMicros   int64  `json:"amountMicros"`
}

// UsageByMonth sums the charges of an organisation's completed documents by
// the month they completed in, over the months ending with now's, newest
// first, every month present. The charge on each record is the one
// billing.Charge made when it completed, the same figures the allowance and
// the ledger were moved by, so the sums agree with them.
func (a *App) UsageByMonth(orgID string, months int, now time.Time) ([]MonthUsage, error) {
	if months < 1 || months > MaxUsageMonths {
		return nil, fault.Invalid("months", "must be from 1 to %d", MaxUsageMonths)
	}
	now = now.UTC()
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	out := make([]MonthUsage, months)
	index := map[string]int{}
	for i := range out {
		m := billing.Period(first.AddDate(0, -i, 0))
		out[i].Month, index[m] = m, i
	}
	// A document completes after it is created, within the render's time
	// limit: a day's margin finds the ones created before the oldest month
	// that completed in it.
	since := first.AddDate(0, -(months - 1), -1)
	err := a.deps.Store.DocumentsSince(orgID, since, func(d storage.Document) error {
		if d.Status != storage.StatusCompleted || d.CompletedAt == nil {
			return nil
		}
		i, ok := index[billing.Period(*d.CompletedAt)]
		if !ok {
			return nil
		}
		u := &out[i]
		u.Documents++
		u.AllowancePages += d.Charge.AllowancePages
		u.WalletPages += d.Charge.WalletPages
		u.AmountMicros += d.Charge.Micros
		return nil
	})
	return out, err
}

// LedgerPage is a page of an organisation's ledger, newest first, and the
// sequence number to ask for rows before to read the next (nil at the first
// row).
type LedgerPage struct {
	Items      []storage.LedgerEntry `json:"items"`
	NextBefore *uint64               `json:"nextBefore"`
}

// Ledger reads limit ledger rows of an organisation older than the row with
// sequence number before (0: from the newest), for the wallet page.
func (a *App) Ledger(orgID string, before uint64, limit int) (LedgerPage, error) {
	rows, err := a.deps.Store.LedgerBefore(orgID, before, limit+1)
	if err != nil {
		return LedgerPage{}, err
	}
	page := LedgerPage{Items: rows}
	if len(rows) > limit {
		page.Items = rows[:limit]
		next := rows[limit-1].Seq
		page.NextBefore = &next
	}
	if page.Items == nil {
		page.Items = []storage.LedgerEntry{}
	}
	return page, nil
}
