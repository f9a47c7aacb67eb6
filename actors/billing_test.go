package actors

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

func (f *fixture) setPlan(t testing.TB, p storage.Plan) {
	t.Helper()
	if err := f.rep.Apply(&storage.Command{Kind: storage.KindSetPlanTerms, At: time.Now(), SetPlanTerms: &p}, time.Second); err != nil {
		t.Fatal(err)
	}
}

// onePage reserves and settles a one-page document, or fails the render when
// fail is set; it returns the refusal of the reservation, if any.
func (f *fixture) onePage(org string, fail bool) error {
	v, err := f.sys.AskOrg(org, CreateDocument{Document: storage.Document{TemplateID: "tpl_x", TemplateSlug: "x", TemplateVersion: 1}, Data: []byte(`{}`)})
	if err != nil {
		return err
	}
	id := v.(CreatedDocument).Document.ID
	kind, ch := storage.KindCompleteDocument, storage.DocumentChange{DocumentID: id, PageCount: 1, ByteSize: 10, BlobHash: "h"}
	if fail {
		kind, ch = storage.KindFailDocument, storage.DocumentChange{DocumentID: id, ErrorCode: CodeRenderFailed}
	}
	_, err = f.sys.AskOrg(org, ChangeDocument{Kind: kind, Change: ch})
	if err != nil {
		return fmt.Errorf("settle: %w", err)
	}
	return nil
}

// checkLedger recomputes the balance from the ledger and compares.
func (f *fixture) checkLedger(t *testing.T, org string) (storage.Org, []storage.LedgerEntry) {
	t.Helper()
	o, _ := f.store.Org(org)
	rows, _ := f.store.Ledger(org, 0)
	var sum int64
	for i, r := range rows {
		sum += r.AmountMicros
		if r.Seq != uint64(i+1) || r.BalanceAfterMicros != sum {
			t.Fatalf("ledger row %d: %+v, running sum %d", i, r, sum)
		}
	}
	if sum != o.BalanceMicros {
		t.Fatalf("balance %d, ledger sums to %d", o.BalanceMicros, sum)
	}
	return o, rows
}

// TestThousandConcurrentOnePageDocuments: 50 pages of allowance and a wallet
// for exactly 100 more; 1,000 one-page documents at once. Exactly 150 are
// made, 100 of them paid, and the rest refused before anything is rendered.
func TestThousandConcurrentOnePageDocuments(t *testing.T) {
	f := newFixture(t)
	f.setPlan(t, storage.Plan{Name: storage.PlanStarter, MonthlyPages: 50, PageRateMicros: 5000, Wallet: true})
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 100 * 5000, Reference: "topup"}); err != nil {
		t.Fatal(err)
	}
	var made, refused atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch err := f.onePage("org_1", false); {
			case err == nil:
				made.Add(1)
			case errors.Is(err, fault.ErrPaymentRequired):
				refused.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if made.Load() != 150 || refused.Load() != 850 {
		t.Fatalf("%d made, %d refused; want 150 and 850", made.Load(), refused.Load())
	}
	o, rows := f.checkLedger(t, "org_1")
	debits := 0
	for _, r := range rows {
		if r.Kind == storage.LedgerDebit {
			debits++
			if r.AmountMicros != -5000 {
				t.Fatalf("debit %+v", r)
			}
		}
	}
	if debits != 100 || o.BalanceMicros != 0 || o.PagesUsed != 50 || o.HeldPages != 0 || o.HeldMicros != 0 {
		t.Fatalf("%d debits, org %+v", debits, o)
	}
	feed, _ := f.store.Feed("org_1", 0, 0)
	debited := 0
	for _, e := range feed {
		if e.Kind == storage.EventWalletDebited {
			debited++
		}
	}
	if debited != 100 {
		t.Fatalf("%d wallet.debited events, want 100", debited)
	}
}

func TestFailedRenderCostsNothing(t *testing.T) {
	f := newFixture(t)
	f.setPlan(t, storage.Plan{Name: storage.PlanStarter, MonthlyPages: 0, PageRateMicros: 5000, Wallet: true})
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 5000, Reference: "topup"})
	for i := 0; i < 5; i++ {
		if err := f.onePage("org_1", true); err != nil {
			t.Fatal(err)
		}
	}
	o, rows := f.checkLedger(t, "org_1")
	if len(rows) != 1 || o.BalanceMicros != 5000 || o.HeldMicros != 0 {
		t.Fatalf("after failed renders: %d rows, org %+v", len(rows), o)
	}
	// The wallet still pays for exactly one page.
	if err := f.onePage("org_1", false); err != nil {
		t.Fatal(err)
	}
	if err := f.onePage("org_1", false); !errors.Is(err, fault.ErrPaymentRequired) {
		t.Fatalf("an empty wallet paid: %v", err)
	}
}

func TestSandboxCapAndMonthRollover(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC))
	f := newFixtureClock(t, clk)
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanSandbox})
	for i := 0; i < 100; i++ {
		if err := f.onePage("org_1", false); err != nil {
			t.Fatalf("page %d: %v", i+1, err)
		}
	}
	if err := f.onePage("org_1", false); !errors.Is(err, fault.ErrPaymentRequired) {
		t.Fatalf("page 101 in November: %v", err)
	}
	clk.Set(time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC))
	if err := f.onePage("org_1", false); err != nil {
		t.Fatalf("first page of December: %v", err)
	}
	o, _ := f.store.Org("org_1")
	if o.UsagePeriod != "2026-12" || o.PagesUsed != 1 || o.PagesUsedIn(clk.Now()) != 1 {
		t.Fatalf("after rollover: %+v", o)
	}
	if o.BalanceMicros != 0 {
		t.Fatalf("a sandbox was charged: %+v", o)
	}
}

// BenchmarkReserveSettle measures one document's money path through the org
// actor: a reservation and a settlement, each a command in the raft log,
// with 64 callers at once.
func BenchmarkReserveSettle(b *testing.B) {
	f := newFixture(b)
	f.setPlan(b, storage.Plan{Name: storage.PlanGrowth, MonthlyPages: 1000, PageRateMicros: 1, Wallet: true})
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanGrowth})
	f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 1 << 40, Reference: "topup"})
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := f.onePage("org_1", false); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "settlements/s")
}

// TestAnOverrunStopsFurtherDocuments: a document longer than its hold may take
// the wallet below zero, and then nothing more is accepted until a top-up.
func TestAnOverrunStopsFurtherDocuments(t *testing.T) {
	f := newFixture(t)
	f.setPlan(t, storage.Plan{Name: storage.PlanStarter, MonthlyPages: 0, PageRateMicros: 100, Wallet: true})
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 100, Reference: "one page"})
	v, err := f.sys.AskOrg("org_1", CreateDocument{Document: storage.Document{TemplateID: "tpl_x", TemplateSlug: "x", TemplateVersion: 1}, Data: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	id := v.(CreatedDocument).Document.ID
	if _, err := f.sys.AskOrg("org_1", ChangeDocument{Kind: storage.KindCompleteDocument, Change: storage.DocumentChange{DocumentID: id, PageCount: 5, BlobHash: "h"}}); err != nil {
		t.Fatal(err)
	}
	if o, _ := f.store.Org("org_1"); o.BalanceMicros != -400 {
		t.Fatalf("balance %d after a 5-page document held as 1", o.BalanceMicros)
	}
	if err := f.onePage("org_1", false); !errors.Is(err, fault.ErrPaymentRequired) {
		t.Fatalf("a document accepted with the wallet below zero: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", ChangeDocument{Kind: storage.KindCompleteDocument, Change: storage.DocumentChange{DocumentID: id, PageCount: 5}}); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("a second completion: %v", err)
	}
}
