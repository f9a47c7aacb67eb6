package transport_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"github.com/platen/platen/accounts"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// Attacks a review of the console found, each refused.

// An invitation for the email of an existing account, used by whoever made
// it, must not take the account: joining needs the account's own password,
// and leaves it and its sessions as they were.
func TestAnInvitationCannotTakeAnAccount(t *testing.T) {
	n := testnode.Start(t, func(c *node.Config) { c.OpenSignUp = true })
	ada := newPerson(t, n)
	ada.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	mallory := newPerson(t, n)
	a := mallory.must(201, "POST", "/console/api/signup", map[string]any{"email": "mallory@example.com", "password": "mallory password"})
	mallory.csrf = a.Data["csrf"].(string)
	link := mallory.must(201, "POST", "/console/api/invites", map[string]any{"email": "ada@example.com", "role": "member"}).Data["link"].(string)
	_, token, _ := strings.Cut(link, "#")
	attacker := newPerson(t, n)
	if info := attacker.must(200, "POST", "/console/api/links/lookup", map[string]any{"token": token}); info.Data["hasAccount"] != true {
		t.Fatalf("lookup: %v", info.Data)
	}
	if a := attacker.do("POST", "/console/api/links/accept", map[string]any{"token": token, "password": "mallory chose this"}, nil); a.Status != 400 || a.Field != "password" {
		t.Fatalf("accepting another's invitation with a password of one's own: %d %s", a.Status, a.Body)
	}
	ada.must(200, "GET", "/console/api/me", nil) // still signed in
	if a := newPerson(t, n).signIn("ada@example.com", "correct horse battery"); a.Status != 200 {
		t.Fatalf("ada's own password after the attempt: %d %s", a.Status, a.Body)
	}
	// Ada herself joins with her password, which stays hers.
	joined := newPerson(t, n)
	joined.accept(link, "", "correct horse battery")
	if orgs := joined.must(200, "GET", "/console/api/me", nil).Data["organisations"].([]any); len(orgs) != 2 {
		t.Fatalf("ada's organisations after joining: %v", orgs)
	}
	ada.must(200, "GET", "/console/api/me", nil)
}

// Guesses made at once are counted before any is checked: at most
// accounts.LockAfter passwords are checked before the lock.
func TestGuessesMadeAtOnceAreCountedBeforeTheyAreChecked(t *testing.T) {
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[int]int{}
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := newPerson(t, n).signIn("ada@example.com", fmt.Sprintf("guess %d xxxxx", i))
			mu.Lock()
			counts[a.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if counts[401] > accounts.LockAfter || counts[401]+counts[429] != 30 {
		t.Fatalf("30 guesses at once: %v; at most %d may be checked and refused 401", counts, accounts.LockAfter)
	}
	// A password change through a session is counted too: locked now.
	if a := owner.do("POST", "/console/api/password", map[string]any{"current": "correct horse battery", "password": "a new passphrase"}, nil); a.Status != 429 || a.Code != "SIGN_IN_LOCKED" {
		t.Fatalf("a password change on a locked account: %d %s", a.Status, a.Body)
	}
}

// A realtime socket opened by an owner follows the person's role: once
// demoted, wallet events stop.
func TestADemotedOwnersSocketStopsGettingWalletEvents(t *testing.T) {
	n := testnode.Start(t, nil)
	ada := newPerson(t, n)
	ada.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	org := ada.must(200, "GET", "/console/api/me", nil).Data["organisation"].(map[string]any)["id"].(string)
	inv := ada.must(201, "POST", "/console/api/invites", map[string]any{"email": "bea@example.com", "role": "owner"})
	bea := newPerson(t, n)
	bea.accept(inv.Data["link"].(string), "", "beas password 1")
	beaID := bea.must(200, "GET", "/console/api/me", nil).Data["user"].(map[string]any)["id"].(string)
	if r := testnode.Do(t, "PATCH", n.URL+"/admin/v1/orgs/"+org, n.OperatorToken, map[string]any{"plan": "starter"}); r.Status != 200 {
		t.Fatal(r)
	}

	u, _ := url.Parse(n.URL)
	h := http.Header{}
	h.Set("Origin", n.URL)
	for _, c := range bea.client.Jar.Cookies(u) {
		h.Add("Cookie", c.Name+"="+c.Value)
	}
	conn, _, err := websocket.DefaultDialer.Dial(strings.Replace(n.URL, "http://", "ws://", 1)+"/v1/realtime", h)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := &wsClient{t: t, conn: conn}
	c.send(map[string]any{"type": "subscribe", "ref": "s"}) // every kind the person may read
	c.until("subscribed")
	credit(t, n, org, 1_000_000, "while-owner")
	if ev := c.next(10 * time.Second); ev["event"] != "wallet.credited" {
		t.Fatalf("an owner's socket: %v", ev)
	}
	ada.must(200, "PATCH", "/console/api/members/"+beaID, map[string]any{"role": "member"})
	credit(t, n, org, 5_000_000, "after-demotion")
	ada.must(201, "POST", "/v1/templates/library/invoice/copy", map[string]any{}) // template.activated: a member's
	if ev := c.next(10 * time.Second); ev["event"] != "template.activated" {
		t.Fatalf("a demoted owner's socket got %v before the template event", ev)
	}
}

// An owner's invitations die with their role.
func TestARemovedOwnersInvitationDies(t *testing.T) {
	n := testnode.Start(t, nil)
	ada := newPerson(t, n)
	ada.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	inv := ada.must(201, "POST", "/console/api/invites", map[string]any{"email": "bea@example.com", "role": "owner"})
	bea := newPerson(t, n)
	bea.accept(inv.Data["link"].(string), "", "beas password 1")
	beaID := bea.must(200, "GET", "/console/api/me", nil).Data["user"].(map[string]any)["id"].(string)
	spare := bea.must(201, "POST", "/console/api/invites", map[string]any{"email": "bea.alt@example.com", "role": "owner"}).Data["link"].(string)
	ada.must(200, "DELETE", "/console/api/members/"+beaID, nil)
	_, token, _ := strings.Cut(spare, "#")
	if a := newPerson(t, n).do("POST", "/console/api/links/accept", map[string]any{"token": token, "password": "beas other password"}, nil); a.Status != 409 {
		t.Fatalf("a removed owner's invitation: %d %s", a.Status, a.Body)
	}
}

// A socket with the session cookie from another origin, or none, is refused.
func TestACrossSiteSocketIsRefused(t *testing.T) {
	n := testnode.Start(t, nil)
	ada := newPerson(t, n)
	ada.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	u, _ := url.Parse(n.URL)
	for _, origin := range []string{"http://evil.example", "", "null", n.URL + ".evil.example"} {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		for _, c := range ada.client.Jar.Cookies(u) {
			h.Add("Cookie", c.Name+"="+c.Value)
		}
		_, res, err := websocket.DefaultDialer.Dial(strings.Replace(n.URL, "http://", "ws://", 1)+"/v1/realtime", h)
		if err == nil || res == nil || res.StatusCode != 403 {
			t.Errorf("origin %q: err %v, response %v; want 403", origin, err, res)
		}
	}
}
