package actors

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/auth"
	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/clock"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

type fixture struct {
	store *storage.Store
	rep   *cluster.Replicator
	sys   *System
}

func newFixture(t testing.TB) *fixture {
	return newFixtureClock(t, clock.System{})
}

func newFixtureClock(t testing.TB, clk clock.Clock) *fixture {
	t.Helper()
	dir := t.TempDir()
	store, err := storage.OpenStore(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := cluster.DefaultRaftConfig()
	cfg.NodeID, cfg.Bind, cfg.Dir, cfg.LogOutput = "n1", "127.0.0.1:0", filepath.Join(dir, "raft"), io.Discard
	rep, err := cluster.StartRaft(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	engine, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	deps := OrgDeps{Store: store, Proposer: rep, Clock: clk, Plans: store.Plans, ProposeTimeout: 5 * time.Second}
	sys := NewSystem(engine, cluster.NewRendezvous(cluster.Member{ID: "n1"}), deps, DocDeps{Store: store, QueueCapacity: 10}, 10*time.Second)
	t.Cleanup(func() {
		sys.Stop()
		rep.Shutdown()
		store.Close()
	})
	return &fixture{store, rep, sys}
}

func TestOrgActorCreatesOrgAndKeys(t *testing.T) {
	f := newFixture(t)
	if _, err := f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: "gold"}); !errors.Is(err, fault.ErrInvalid) {
		t.Fatalf("unknown plan: %v", err)
	}
	v, err := f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanSandbox})
	if err != nil || v.(storage.Org).Version != 1 {
		t.Fatalf("create: %v %v", v, err)
	}
	if _, err := f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanSandbox}); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("second create: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", CreateKey{Name: "ci", Scopes: []string{"templates.read", "nope"}, AnyScope: true}); err == nil {
		t.Fatal("unknown scope accepted")
	} else {
		var fe *fault.FieldError
		if !errors.As(err, &fe) || fe.Field != "scopes[1]" {
			t.Fatalf("unknown scope error %v does not name scopes[1]", err)
		}
	}
	v, err = f.sys.AskOrg("org_1", CreateKey{Name: "ci", Scopes: []string{"templates.read", "templates.read"}, AnyScope: true})
	if err != nil {
		t.Fatal(err)
	}
	nk := v.(NewKey)
	stored, err := f.store.APIKeyByHash(auth.Hash(nk.Secret))
	if err != nil || stored.ID != nk.Key.ID || len(stored.Scopes) != 1 {
		t.Fatalf("stored key %+v, %v", stored, err)
	}
	if stored.Hash == nk.Secret || stored.Prefix == nk.Secret {
		t.Fatal("key value stored in the clear")
	}
	if _, err := f.sys.AskOrg("org_2", RevokeKey{KeyID: nk.Key.ID, AnyScope: true}); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("another org revoked the key: %v", err)
	}
	var revoked []time.Time
	for i := 0; i < 2; i++ {
		v, err := f.sys.AskOrg("org_1", RevokeKey{KeyID: nk.Key.ID, AnyScope: true})
		if err != nil || v.(storage.APIKey).RevokedAt == nil {
			t.Fatalf("revoke %d: %v %v", i, v, err)
		}
		revoked = append(revoked, *v.(storage.APIKey).RevokedAt)
	}
	if stored, _ := f.store.APIKey(nk.Key.ID); !revoked[0].Equal(*stored.RevokedAt) || !revoked[1].Equal(revoked[0]) {
		t.Fatalf("revocation times %v differ from the stored %v", revoked, stored.RevokedAt)
	}
	if _, err := f.store.APIKeyByHash(auth.Hash(nk.Secret)); !errors.Is(err, storage.ErrNotFound) {
		t.Fatal("revoked key still authenticates")
	}
}

// TestKeyMakerGivesOnlyScopesItHolds is the no-escalation rule of CreateKey:
// a caller with keys.write gives only scopes it holds (documents.generate
// counting as documents.read), whatever way in it came by.
func TestKeyMakerGivesOnlyScopesItHolds(t *testing.T) {
	f := newFixture(t)
	if _, err := f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanSandbox}); err != nil {
		t.Fatal(err)
	}
	holder := []string{"keys.write", "documents.generate", "templates.read"}
	cases := []struct {
		name   string
		msg    CreateKey
		refuse string // the scope the refusal names; "" when allowed
	}{
		{"a subset", CreateKey{Name: "a", Scopes: []string{"templates.read"}, Holder: holder}, ""},
		{"its own scopes", CreateKey{Name: "b", Scopes: holder, Holder: holder}, ""},
		{"read through generate", CreateKey{Name: "c", Scopes: []string{"documents.read"}, Holder: holder}, ""},
		{"one more", CreateKey{Name: "d", Scopes: []string{"templates.read", "wallet.read"}, Holder: holder}, "wallet.read"},
		{"keys.read it lacks", CreateKey{Name: "e", Scopes: []string{"keys.read"}, Holder: holder}, "keys.read"},
		{"no holder holds nothing", CreateKey{Name: "f", Scopes: []string{"templates.read"}}, "templates.read"},
		{"the operator gives any", CreateKey{Name: "g", Scopes: []string{"wallet.read", "keys.read"}, AnyScope: true}, ""},
	}
	for _, c := range cases {
		v, err := f.sys.AskOrg("org_1", c.msg)
		if c.refuse == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if nk := v.(NewKey); len(nk.Key.Scopes) != len(c.msg.Scopes) {
				t.Errorf("%s: key holds %v", c.name, nk.Key.Scopes)
			}
			continue
		}
		var fe *fault.FieldError
		if !errors.Is(err, fault.ErrForbidden) || !errors.As(err, &fe) || fe.Field != "scopes" || !strings.Contains(fe.Msg, c.refuse) {
			t.Errorf("%s: want a forbidden refusal of scopes naming %s, got %v", c.name, c.refuse, err)
		}
	}
	keys, err := f.store.OrgKeys("org_1")
	if err != nil || len(keys) != 4 {
		t.Fatalf("%d keys made, want 4: %v", len(keys), err)
	}
}

func TestConcurrentCreditsAddUpAndReferencesAreIdempotent(t *testing.T) {
	f := newFixture(t)
	if _, err := f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanSandbox}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 5}); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("sandbox credited: %v", err)
	}
	f.sys.AskOrg("org_1", SetPlan{Plan: storage.PlanStarter})

	const n = 300
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: int64(i + 1), Reference: fmt.Sprintf("r%d", i)})
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	org, _ := f.store.Org("org_1")
	rows, _ := f.store.Ledger("org_1", 0)
	var sum int64
	for _, r := range rows {
		sum += r.AmountMicros
	}
	if want := int64(n * (n + 1) / 2); org.BalanceMicros != want || sum != want || len(rows) != n {
		t.Fatalf("balance %d, ledger sum %d over %d rows, want %d", org.BalanceMicros, sum, len(rows), want)
	}

	v, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 8, Reference: "r7"})
	if err != nil || !v.(Credit).Replayed {
		t.Fatalf("retry of r7: %v %v", v, err)
	}
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 9, Reference: "r7"}); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("r7 with another amount: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: -1, Reference: "neg"}); !errors.Is(err, fault.ErrInvalid) {
		t.Fatalf("negative credit: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 5}); !errors.Is(err, fault.ErrInvalid) {
		t.Fatalf("credit without a reference: %v", err)
	}
	if after, _ := f.store.Org("org_1"); after.BalanceMicros != org.BalanceMicros {
		t.Fatal("a refused or replayed credit changed the balance")
	}
}

// TestStaleOwnerIsRefusedAndActorRecovers writes to an org behind its actor's
// back, as a second owner would during a membership change: the actor's next
// command is refused by the state machine, nothing is applied twice, and the
// actor reloads and goes on.
func TestStaleOwnerIsRefusedAndActorRecovers(t *testing.T) {
	f := newFixture(t)
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 100, Reference: "a"}); err != nil {
		t.Fatal(err)
	}
	other := &storage.Command{Kind: storage.KindCreditWallet, OrgID: "org_1", Expect: 2, At: time.Now(),
		CreditWallet: &storage.CreditWallet{EntryID: "led_x", EventID: "evt_x", AmountMicros: 1000}}
	if err := f.rep.Apply(other, time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 7, Reference: "b"}); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("stale actor's command: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 7, Reference: "b"}); err != nil {
		t.Fatalf("actor did not recover: %v", err)
	}
	org, _ := f.store.Org("org_1")
	if org.BalanceMicros != 1107 {
		t.Fatalf("balance %d, want 1107", org.BalanceMicros)
	}
}

type panicky struct{ n int }

func (p *panicky) Receive(c *actor.Context) {
	switch m := c.Message().(type) {
	case string:
		if m == "boom" {
			p.n++
			panic(fmt.Sprintf("boom %d", p.n))
		}
		c.Respond(Reply{Value: fmt.Sprintf("ok after %d panics", p.n)})
	}
}

func TestRecoverKeepsTheProcessAndTheActorAlive(t *testing.T) {
	engine, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	pid := engine.Spawn(func() actor.Receiver { return &panicky{} }, "panicky", actor.WithMiddleware(Recover))
	before := Panics.Load()
	for i := 0; i < 5; i++ {
		res, err := engine.Request(pid, "boom", 2*time.Second).Result()
		if err != nil {
			t.Fatalf("panic %d: no answer: %v", i+1, err)
		}
		if r := res.(Reply); !errors.Is(r.Err, ErrPanicked) {
			t.Fatalf("panic %d answered %+v", i+1, r)
		}
	}
	res, err := engine.Request(pid, "hello", 2*time.Second).Result()
	if err != nil || res.(Reply).Value != "ok after 5 panics" {
		t.Fatalf("after five panics: %v %v", res, err)
	}
	if got := Panics.Load() - before; got != 5 {
		t.Fatalf("counted %d panics", got)
	}
}

// TestExpiredRequestIsDroppedUnapplied sends a request whose asker has already
// given up: the actor must not apply it.
func TestExpiredRequestIsDroppedUnapplied(t *testing.T) {
	f := newFixture(t)
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	pid, _ := f.sys.org("org_1")
	f.sys.engine.Send(pid, request{msg: CreditWallet{AmountMicros: 5, Reference: "late"}, deadline: time.Now().Add(-time.Second)})
	if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 1, Reference: "after"}); err != nil {
		t.Fatal(err)
	}
	if org, _ := f.store.Org("org_1"); org.BalanceMicros != 1 {
		t.Fatalf("balance %d: an expired request was applied", org.BalanceMicros)
	}
}

func TestConcurrentVersionSavesAreNumberedInOrder(t *testing.T) {
	f := newFixture(t)
	f.sys.AskOrg("org_1", CreateOrg{Name: "Acme", Plan: storage.PlanStarter})
	v, err := f.sys.AskOrg("org_1", CreateTemplate{Name: "Invoice", Slug: "invoice", Version: &render.Version{HTML: "<p>{{n}}</p>"}, Activate: true})
	if err != nil {
		t.Fatal(err)
	}
	tpl := v.(storage.Template)
	if tpl.ActiveVersion != 1 || tpl.LatestVersion != 1 {
		t.Fatalf("created %+v", tpl)
	}
	if _, err := f.sys.AskOrg("org_1", CreateTemplate{Name: "Other", Slug: "invoice"}); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("slug taken: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", CreateTemplate{Name: "Bad", Slug: "Bad Slug"}); !errors.Is(err, fault.ErrInvalid) {
		t.Fatalf("bad slug: %v", err)
	}
	if _, err := f.sys.AskOrg("org_1", SaveVersion{TemplateID: tpl.ID, Version: render.Version{HTML: "{{#if}}"}}); !errors.Is(err, fault.ErrInvalid) {
		t.Fatalf("markup that does not compile: %v", err)
	}
	var wg sync.WaitGroup
	numbers := make(chan int, 20)
	for i := 0; i < 20; i++ {
		wg.Add(2)
		go func(i int) {
			defer wg.Done()
			v, err := f.sys.AskOrg("org_1", SaveVersion{TemplateID: tpl.ID, Version: render.Version{HTML: fmt.Sprintf("<p>%d</p>", i)}})
			if err != nil {
				t.Error(err)
				return
			}
			numbers <- v.(storage.TemplateVersion).Number
		}(i)
		go func(i int) { // credits pipeline alongside
			defer wg.Done()
			if _, err := f.sys.AskOrg("org_1", CreditWallet{AmountMicros: 1, Reference: fmt.Sprint("c", i)}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	close(numbers)
	seen := map[int]bool{}
	for n := range numbers {
		seen[n] = true
	}
	for n := 2; n <= 21; n++ {
		if !seen[n] {
			t.Fatalf("version %d missing: %v", n, seen)
		}
	}
	v, err = f.sys.AskOrg("org_1", ActivateVersion{TemplateID: tpl.ID, Number: 7})
	if err != nil || v.(storage.Template).ActiveVersion != 7 {
		t.Fatalf("activate: %v %v", v, err)
	}
	if _, err := f.sys.AskOrg("org_1", ActivateVersion{TemplateID: tpl.ID, Number: 99}); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("activate a version that does not exist: %v", err)
	}
	if _, err := f.sys.AskOrg("org_2", ActivateVersion{TemplateID: tpl.ID, Number: 1}); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("another org activated the template: %v", err)
	}
	if org, _ := f.store.Org("org_1"); org.BalanceMicros != 20 {
		t.Fatalf("balance %d", org.BalanceMicros)
	}
}
