package actors

import (
	"errors"
	"testing"
	"time"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// TestReservationsHoldUntilRecordedOrReleased: a reserved document's hold
// counts against the wallet while it renders, so a second one the wallet
// cannot also pay is refused; a render that ends without a record (here a
// panic: this fixture has no renderer) answers its caller "try again" and
// lets the hold and the Idempotency-Key go.
func TestReservationsHoldUntilRecordedOrReleased(t *testing.T) {
	f := newFixture(t)
	f.setPlan(t, storage.Plan{Name: storage.PlanStarter, MonthlyPages: 0, PageRateMicros: 5000, Wallet: true})
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 5000, Reference: "topup"})
	reserve := func(key string) (any, error) {
		return f.sys.AskOrg("org_1", ReserveDocument{CreateDocument{Document: storage.Document{TemplateID: "tpl_x", TemplateSlug: "x", TemplateVersion: 1},
			Data: []byte(`{}`), IdempotencyKey: key, BodyHash: "b"}})
	}
	v, err := reserve("k1")
	if err != nil {
		t.Fatal(err)
	}
	res := v.(Reservation)
	if _, err := reserve("k2"); !errors.Is(err, fault.ErrPaymentRequired) {
		t.Fatalf("a second page the wallet cannot also pay: %v", err)
	}
	if _, err := reserve("k1"); !errors.Is(err, fault.ErrUnavailable) {
		t.Fatalf("the same key while the first renders: %v", err)
	}
	if o, _ := f.store.Org("org_1"); o.Version != 2 || o.HeldMicros != 0 {
		t.Fatalf("a reservation wrote to the store: %+v", o)
	}

	r := f.sys.StartRecorded(res)
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the render never ended")
	}
	if cd, err := r.Result(); !errors.Is(err, fault.ErrUnavailable) || cd.Document.ID != "" {
		t.Fatalf("a render that panicked answered %+v, %v", cd, err)
	}
	// Released: the key and the money are free again.
	if _, err := reserve("k1"); err != nil {
		t.Fatalf("after the release: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", ReleaseDocument{DocumentID: "doc_unknown"}); err != nil {
		t.Fatalf("releasing what is not reserved: %v", err)
	}
}
