package actors

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/seal"
	"github.com/platen/platen/storage"
	"github.com/platen/platen/webhooks"
)

// TestRetryScheduleUnderAnInjectedClock: a failing attempt at a fake time
// schedules the retry at that time plus the first wait of the schedule,
// jittered: about 30 s later, not after sleeping.
func TestRetryScheduleUnderAnInjectedClock(t *testing.T) {
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) }))
	defer recv.Close()
	clk := clock.NewFake(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	f := newFixtureClock(t, clk)
	sealer, _ := seal.New(make([]byte, 32))
	f.sys.SetSealer(sealer)
	f.sys.SetHooks(HookDeps{Store: f.store, Proposer: f.rep, Clock: clk, Sealer: sealer,
		Sender: webhooks.NewSender(webhooks.Guard{AllowPrivate: true}, nil)})
	f.sys.AskOrg("org_1", CreateOrg{Name: "A", Plan: storage.PlanStarter})
	v, err := f.sys.AskOrg("org_1", CreateEndpoint{Name: "r", URL: recv.URL, Events: []string{storage.EventWalletCredited}})
	if err != nil {
		t.Fatal(err)
	}
	ep := v.(NewEndpoint).Endpoint
	f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 5, Reference: "x"})
	var d storage.Delivery
	poll.Until(t, 10*time.Second, func() error {
		ds, err := f.store.Deliveries(ep.ID, "", 1)
		if err != nil || len(ds) != 1 || ds[0].Attempts != 1 {
			return fmt.Errorf("no attempt recorded: deliveries %+v, %v", ds, err)
		}
		d = ds[0]
		return nil
	})
	wait := d.NextAttemptAt.Sub(clk.Now())
	if d.Status != storage.DeliveryPending || d.LastStatus != 503 || wait < 24*time.Second || wait > 36*time.Second {
		t.Fatalf("after a 503 at the fake time: %+v (retry in %s, want 30 s ± 20%%)", d, wait)
	}
}
