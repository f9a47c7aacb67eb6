package transport_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/node"
)

// person is a browser: a cookie jar, the node's origin, and the session's
// CSRF token once signed in.
type person struct {
	t      *testing.T
	n      *testnode.Node
	client *http.Client
	csrf   string
}

func newPerson(t *testing.T, n *testnode.Node) *person {
	jar, _ := cookiejar.New(nil)
	return &person{t: t, n: n, client: &http.Client{Jar: jar}}
}

type answer struct {
	Status int
	Code   string
	Field  string
	Data   map[string]any
	Body   string
	Header http.Header
}

// do sends a request as the console does: same origin, the CSRF token on
// state-changing requests. headers override (a forged request removes them).
func (p *person) do(method, path string, body any, headers map[string]string) answer {
	p.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.n.URL+path, rd)
	req.Header.Set("Origin", p.n.URL)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.csrf != "" && method != "GET" {
		req.Header.Set("X-CSRF-Token", p.csrf)
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	a := answer{Status: res.StatusCode, Body: string(raw), Header: res.Header}
	var env struct {
		Data  map[string]any `json:"data"`
		Error struct{ Code, Field string }
	}
	if json.Unmarshal(raw, &env) == nil {
		a.Data, a.Code, a.Field = env.Data, env.Error.Code, env.Error.Field
	}
	return a
}

func (p *person) must(want int, method, path string, body any) answer {
	p.t.Helper()
	a := p.do(method, path, body, nil)
	if a.Status != want {
		p.t.Fatalf("%s %s: %d %s, want %d", method, path, a.Status, a.Body, want)
	}
	return a
}

// accept uses a one-time link (its token is after '#') and signs in.
func (p *person) accept(link, email, password string) {
	p.t.Helper()
	_, token, ok := strings.Cut(link, "#")
	if !ok {
		p.t.Fatalf("no token in link %q", link)
	}
	a := p.must(200, "POST", "/console/api/links/accept", map[string]any{"token": token, "email": email, "password": password})
	p.csrf = a.Data["csrf"].(string)
}

func (p *person) signIn(email, password string) answer {
	p.t.Helper()
	a := p.do("POST", "/console/api/signin", map[string]any{"email": email, "password": password}, nil)
	if a.Status == 200 {
		p.csrf = a.Data["csrf"].(string)
	}
	return a
}

func sessionCookie(t *testing.T, res http.Header) *http.Cookie {
	for _, c := range (&http.Response{Header: res}).Cookies() {
		if c.Name == "platen_session" {
			return c
		}
	}
	t.Fatal("no session cookie set")
	return nil
}

func TestFirstOwnerSignsInAndManagesKeys(t *testing.T) {
	n := testnode.Start(t, nil)
	if !strings.HasPrefix(n.OwnerLink, n.Direct+"/link#pll_") {
		t.Fatalf("first start printed no owner link on the node's address: %q", n.OwnerLink)
	}
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "Ada@Example.com", "correct horse battery")
	me := owner.must(200, "GET", "/console/api/me", nil).Data
	if me["role"] != "owner" || me["user"].(map[string]any)["email"] != "ada@example.com" {
		t.Fatalf("me after the owner link: %v", me)
	}
	// The link works once.
	_, token, _ := strings.Cut(n.OwnerLink, "#")
	if a := newPerson(t, n).do("POST", "/console/api/links/accept", map[string]any{"token": token, "email": "eve@example.com", "password": "0123456789ab"}, nil); a.Status != 409 {
		t.Fatalf("second use of the owner link: %d %s", a.Status, a.Body)
	}
	// A key made in the console works with the REST API, and its value is
	// in no later answer.
	k := owner.must(201, "POST", "/console/api/keys", map[string]any{"name": "ci", "scopes": []string{"templates.read"}}).Data
	value := k["key"].(string)
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates", value, nil); r.Status != 200 {
		t.Fatalf("the console's key on REST: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/wallet", value, nil); r.Status != 403 {
		t.Fatalf("the key's scopes are not enforced: %s", r)
	}
	// Its use is recorded, in the background: the list says when.
	poll.Until(t, 10*time.Second, func() error {
		for _, it := range owner.must(200, "GET", "/console/api/keys", nil).Data["items"].([]any) {
			if k := it.(map[string]any); k["name"] == "ci" && k["lastUsedAt"] != nil {
				return nil
			}
		}
		return fmt.Errorf("the key's last use is not recorded")
	})
	if list := owner.must(200, "GET", "/console/api/keys", nil); strings.Contains(list.Body, value) || strings.Contains(list.Body, value[len(value)-20:]) {
		t.Fatal("the key's value is in the key list")
	}
	owner.must(200, "DELETE", "/console/api/keys/"+k["id"].(string), nil)
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates", value, nil); r.Status != 401 {
		t.Fatalf("a revoked key still works: %s", r)
	}
	// The session also works on the API's routes, with the owner's scopes.
	owner.must(200, "GET", "/v1/wallet", nil)
	// Pages answer the shell; API paths do not.
	if a := owner.must(200, "GET", "/documents/doc_x", nil); !strings.Contains(a.Body, "/assets/app.js") || a.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("a page path is not the console's shell: %s", a.Body)
	}
	owner.must(404, "GET", "/v1/nothing-here", nil)
}

func TestForgedCrossSiteRequestsAreRefused(t *testing.T) {
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	for _, c := range []struct {
		name    string
		headers map[string]string
	}{
		{"no CSRF token", map[string]string{"X-CSRF-Token": ""}},
		{"wrong CSRF token", map[string]string{"X-CSRF-Token": "forged"}},
		{"another site's origin", map[string]string{"Origin": "http://evil.example"}},
		{"no origin", map[string]string{"Origin": ""}},
	} {
		for _, path := range []string{"/console/api/keys", "/v1/templates/library/invoice/copy"} {
			a := owner.do("POST", path, map[string]any{"name": "x", "scopes": []string{"templates.read"}}, c.headers)
			if a.Status != 403 || a.Code != "CSRF" {
				t.Errorf("%s, POST %s: %d %s, want 403 CSRF", c.name, path, a.Status, a.Body)
			}
		}
	}
	// A form another site posts to sign in is refused before it is read.
	a := newPerson(t, n).do("POST", "/console/api/signin", map[string]any{"email": "ada@example.com", "password": "correct horse battery"},
		map[string]string{"Origin": "http://evil.example"})
	if a.Status != 403 || a.Code != "CSRF" {
		t.Errorf("cross-site sign-in: %d %s", a.Status, a.Body)
	}
	if keys := owner.must(200, "GET", "/console/api/keys", nil); strings.Count(keys.Body, `"id"`) != 1 {
		t.Fatalf("a forged request made a key: %s", keys.Body)
	}
}

func TestACookieStolenAfterSignOutIsRefused(t *testing.T) {
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	a := owner.signIn("ada@example.com", "correct horse battery")
	stolen := sessionCookie(t, a.Header)
	if !stolen.HttpOnly || stolen.SameSite != http.SameSiteLaxMode || stolen.Secure {
		t.Fatalf("cookie attributes: %+v (Secure only for an https base URL)", stolen)
	}
	thief := newPerson(t, n)
	use := func() int {
		req, _ := http.NewRequest("GET", n.URL+"/v1/templates", nil)
		req.AddCookie(&http.Cookie{Name: stolen.Name, Value: stolen.Value})
		res, err := thief.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := use(); s != 200 {
		t.Fatalf("the cookie before sign-out: %d", s)
	}
	owner.must(200, "POST", "/console/api/signout", map[string]any{})
	if s := use(); s != 401 {
		t.Fatalf("the cookie after sign-out: %d, want 401", s)
	}
	// Sign out everywhere ends every other session too.
	other := newPerson(t, n)
	other.signIn("ada@example.com", "correct horse battery")
	owner.signIn("ada@example.com", "correct horse battery")
	owner.must(200, "POST", "/console/api/signout", map[string]any{"everywhere": true})
	if a := other.do("GET", "/console/api/me", nil, nil); a.Status != 401 {
		t.Fatalf("another session after sign-out everywhere: %d", a.Status)
	}
}

func TestMembersAreRefusedOwnerActions(t *testing.T) {
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	inv := owner.must(201, "POST", "/console/api/invites", map[string]any{"email": "bob@example.com", "role": "member"}).Data
	member := newPerson(t, n)
	member.accept(inv["link"].(string), "", "bobs password 1")
	for _, c := range []struct{ method, path string }{
		{"GET", "/console/api/keys"}, {"POST", "/console/api/keys"}, {"GET", "/console/api/members"},
		{"POST", "/console/api/invites"}, {"GET", "/v1/webhooks"}, {"POST", "/v1/webhooks"}, {"GET", "/v1/wallet"},
		{"GET", "/v1/signing/certificates"}, {"POST", "/v1/signing/certificates"}, {"DELETE", "/v1/signing/certificates/crt_x"},
	} {
		if a := member.do(c.method, c.path, map[string]any{}, nil); a.Status != 403 || a.Code != "FORBIDDEN" {
			t.Errorf("member %s %s: %d %s, want 403", c.method, c.path, a.Status, a.Body)
		}
	}
	// What members may do, they do, through the same routes.
	member.must(201, "POST", "/v1/templates/library/invoice/copy", map[string]any{})
	// The last owner cannot leave or be demoted; a second owner can be.
	ownerID := owner.must(200, "GET", "/console/api/me", nil).Data["user"].(map[string]any)["id"].(string)
	if a := owner.do("PATCH", "/console/api/members/"+ownerID, map[string]any{"role": "member"}, nil); a.Status != 409 {
		t.Fatalf("demoting the last owner: %d %s", a.Status, a.Body)
	}
	memberID := member.must(200, "GET", "/console/api/me", nil).Data["user"].(map[string]any)["id"].(string)
	owner.must(200, "PATCH", "/console/api/members/"+memberID, map[string]any{"role": "owner"})
	member.must(200, "GET", "/console/api/keys", nil) // the role is read on every request
	owner.must(200, "DELETE", "/console/api/members/"+memberID, nil)
	if a := member.do("GET", "/console/api/me", nil, nil); a.Status != 401 {
		t.Fatalf("a removed member's session: %d", a.Status)
	}
}

func TestAnotherOrganisationsIdsAreRefused(t *testing.T) {
	// The endpoint is on loopback, where nothing listens: nothing is sent
	// off this machine.
	n := testnode.Start(t, func(c *node.Config) { c.WebhookAllowPrivate = true })
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	// Organisation B, its owner, key, template, document and endpoint.
	orgB := createOrg(t, n, "B", "starter")
	keyB, valueB := createKey(t, n, orgB, "templates.read", "templates.write", "documents.generate", "webhooks.write", "webhooks.read")
	inv := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+orgB+"/invites", n.OperatorToken, map[string]any{"email": "bea@example.com", "role": "owner"})
	if inv.Status != 201 {
		t.Fatalf("operator invite: %s", inv)
	}
	bea := newPerson(t, n)
	bea.accept(inv.Data()["link"].(string), "", "beas password 1")
	beaID := bea.must(200, "GET", "/console/api/me", nil).Data["user"].(map[string]any)["id"].(string)
	tpl := testnode.Do(t, "POST", n.URL+"/v1/templates/library/invoice/copy", valueB, map[string]any{})
	tplID := tpl.Data()["id"].(string)
	hook := testnode.Do(t, "POST", n.URL+"/v1/webhooks", valueB, map[string]any{"name": "b", "url": "https://127.0.0.1:9/hook"})
	if hook.Status != 201 {
		t.Fatalf("webhook for B: %s", hook)
	}
	hookID := hook.Data()["id"].(string)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/templates/" + tplID, nil},
		{"GET", "/v1/templates/" + tplID + "/versions", nil},
		{"POST", "/v1/templates/" + tplID + "/versions/1/activate", map[string]any{}},
		{"POST", "/v1/templates/" + tplID + "/preview", map[string]any{}},
		{"POST", "/v1/documents", map[string]any{"templateId": tplID, "data": map[string]any{}}},
		{"GET", "/v1/webhooks/" + hookID, nil},
		{"GET", "/v1/webhooks/" + hookID + "/deliveries", nil},
		{"POST", "/v1/webhooks/" + hookID + "/ping", map[string]any{}},
		{"DELETE", "/console/api/keys/" + keyB, nil},
		{"PATCH", "/console/api/members/" + beaID, map[string]any{"role": "member"}},
		{"DELETE", "/console/api/members/" + beaID, nil},
	} {
		if a := owner.do(c.method, c.path, c.body, nil); a.Status != 404 {
			t.Errorf("%s %s of another organisation: %d %s, want 404", c.method, c.path, a.Status, a.Body)
		}
	}
	if a := owner.do("POST", "/console/api/switch", map[string]any{"organisationId": orgB}, nil); a.Status != 404 {
		t.Errorf("switching into another organisation: %d %s", a.Status, a.Body)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/webhooks/"+hookID, valueB, nil); r.Status != 200 {
		t.Fatalf("B's own endpoint: %s", r)
	}
}

func TestSignInIsSlowedThenLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("waits through the slowed sign-ins (about 8 s)")
	}
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	guesser := newPerson(t, n)
	for i := 1; i <= 10; i++ {
		a := guesser.signIn("ada@example.com", fmt.Sprintf("guess number %d", i))
		want, code := 401, "INVALID_CREDENTIALS"
		if i == 10 {
			want, code = 429, "SIGN_IN_LOCKED"
		}
		if a.Status != want || a.Code != code {
			t.Fatalf("failure %d: %d %s, want %d %s", i, a.Status, a.Body, want, code)
		}
	}
	a := guesser.signIn("ada@example.com", "correct horse battery")
	if a.Status != 429 || a.Code != "SIGN_IN_LOCKED" || a.Header.Get("Retry-After") == "" {
		t.Fatalf("the right password on a locked account: %d %s", a.Status, a.Body)
	}
	// An unknown account answers as a wrong password does.
	if a := guesser.signIn("nobody@example.com", "whatever 12345"); a.Status != 401 || a.Code != "INVALID_CREDENTIALS" {
		t.Fatalf("unknown account: %d %s", a.Status, a.Body)
	}
}

func TestPasswordChangeAndOperatorReset(t *testing.T) {
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	laptop := newPerson(t, n)
	laptop.signIn("ada@example.com", "correct horse battery")

	if a := owner.do("POST", "/console/api/password", map[string]any{"current": "wrong one", "password": "a new passphrase"}, nil); a.Status != 400 || a.Field != "current" {
		t.Fatalf("change with a wrong current password: %d %s", a.Status, a.Body)
	}
	if a := owner.do("POST", "/console/api/password", map[string]any{"current": "correct horse battery", "password": "short"}, nil); a.Status != 400 || a.Field != "password" {
		t.Fatalf("change to a short password: %d %s", a.Status, a.Body)
	}
	owner.must(200, "POST", "/console/api/password", map[string]any{"current": "correct horse battery", "password": "a new passphrase"})
	owner.must(200, "GET", "/console/api/me", nil) // the changing session stays
	if a := laptop.do("GET", "/console/api/me", nil, nil); a.Status != 401 {
		t.Fatalf("another session after a password change: %d", a.Status)
	}
	if a := newPerson(t, n).signIn("ada@example.com", "correct horse battery"); a.Status != 401 {
		t.Fatalf("the old password after a change: %d", a.Status)
	}

	// The operator's reset link sets a new password and signs out everywhere.
	r := testnode.Do(t, "POST", n.URL+"/admin/v1/users/reset", n.OperatorToken, map[string]any{"email": "ADA@example.com"})
	if r.Status != 201 || r.Data()["purpose"] != "reset" {
		t.Fatalf("reset link: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/admin/v1/users/reset", n.OperatorToken, map[string]any{"email": "nobody@example.com"}); r.Status != 404 {
		t.Fatalf("reset link for nobody: %s", r)
	}
	phone := newPerson(t, n)
	phone.accept(r.Data()["link"].(string), "", "after the reset")
	if a := owner.do("GET", "/console/api/me", nil, nil); a.Status != 401 {
		t.Fatalf("a session from before the reset: %d", a.Status)
	}
	if a := newPerson(t, n).signIn("ada@example.com", "after the reset"); a.Status != 200 {
		t.Fatalf("sign-in with the reset password: %d %s", a.Status, a.Body)
	}
}

func TestOpenSignUpIsOffUnlessTheNodeAllowsIt(t *testing.T) {
	closed := testnode.Start(t, nil)
	if a := newPerson(t, closed).do("POST", "/console/api/signup", map[string]any{"email": "x@example.com", "password": "long enough pw"}, nil); a.Status != 403 || a.Code != "SIGN_UP_CLOSED" {
		t.Fatalf("sign-up on a closed node: %d %s", a.Status, a.Body)
	}
	n := testnode.Start(t, func(c *node.Config) { c.OpenSignUp = true })
	p := newPerson(t, n)
	a := p.must(201, "POST", "/console/api/signup", map[string]any{"email": "new@example.com", "password": "long enough pw", "organisation": "New Co"})
	if a.Data["role"] != "owner" || a.Data["organisation"].(map[string]any)["plan"] != "sandbox" {
		t.Fatalf("sign-up: %v", a.Data)
	}
	p.csrf = a.Data["csrf"].(string)
	if a := newPerson(t, n).do("POST", "/console/api/signup", map[string]any{"email": "NEW@example.com", "password": "long enough pw"}, nil); a.Status != 409 {
		t.Fatalf("sign-up with a taken email: %d %s", a.Status, a.Body)
	}
	// The new organisation is its own: the first organisation's templates are not its.
	p.must(200, "GET", "/v1/templates", nil)
	p.must(201, "POST", "/v1/templates/library/invoice/copy", map[string]any{})
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates/invoice", n.Key, nil); r.Status != 404 {
		t.Fatalf("a sign-up's template in the first organisation: %s", r)
	}
}

func TestOwnersSeeAndTakeBackInvitations(t *testing.T) {
	n := testnode.Start(t, nil)
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	link := owner.must(201, "POST", "/console/api/invites", map[string]any{"email": "bob@example.com", "role": "member"}).Data["link"].(string)
	_, token, _ := strings.Cut(link, "#")
	list := owner.must(200, "GET", "/console/api/invites", nil)
	items := list.Data["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["email"] != "bob@example.com" || items[0].(map[string]any)["createdBy"] != "ada@example.com" {
		t.Fatalf("invitations: %s", list.Body)
	}
	if strings.Contains(list.Body, token) {
		t.Fatal("the invitation's token is in the list")
	}
	id := items[0].(map[string]any)["id"].(string)

	// Another organisation's owner cannot see or take it back.
	orgB := createOrg(t, n, "B", "starter")
	inv := testnode.Do(t, "POST", n.URL+"/admin/v1/orgs/"+orgB+"/invites", n.OperatorToken, map[string]any{"email": "bea@example.com", "role": "owner"})
	bea := newPerson(t, n)
	bea.accept(inv.Data()["link"].(string), "", "beas password 1")
	if a := bea.do("DELETE", "/console/api/invites/"+id, nil, nil); a.Status != 404 {
		t.Fatalf("another organisation's owner took it back: %d %s", a.Status, a.Body)
	}
	if l := bea.must(200, "GET", "/console/api/invites", nil); strings.Contains(l.Body, "bob@example.com") {
		t.Fatalf("another organisation's invitations: %s", l.Body)
	}

	owner.must(200, "DELETE", "/console/api/invites/"+id, nil)
	if l := owner.must(200, "GET", "/console/api/invites", nil); len(l.Data["items"].([]any)) != 0 {
		t.Fatalf("a taken-back invitation is listed: %s", l.Body)
	}
	if a := newPerson(t, n).do("POST", "/console/api/links/accept", map[string]any{"token": token, "password": "bobs password 1"}, nil); a.Status != 409 {
		t.Fatalf("a taken-back invitation was used: %d %s", a.Status, a.Body)
	}
	if a := owner.do("DELETE", "/console/api/invites/"+id, nil, nil); a.Status != 404 {
		t.Fatalf("taking it back twice: %d %s", a.Status, a.Body)
	}
}

// The console's files are served gzipped to a browser that accepts it (the
// code editor's bundle is the large one), plain to one that does not, and
// revalidate by ETag whichever way they were sent.
func TestConsoleAssetsAreGzippedAndRevalidate(t *testing.T) {
	n := testnode.Start(t, nil)
	get := func(path, encoding, etag string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", n.URL+path, nil)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding) // set by hand: the client then leaves the body compressed
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	for _, path := range []string{"/assets/app.css", "/assets/pages/template.js"} {
		plainRes, plain := get(path, "identity", "")
		if plainRes.StatusCode != 200 || plainRes.Header.Get("Content-Encoding") != "" || len(plain) < 1024 {
			t.Fatalf("%s without gzip: %d %q, %d bytes", path, plainRes.StatusCode, plainRes.Header.Get("Content-Encoding"), len(plain))
		}
		zres, zbody := get(path, "br, gzip;q=0.8", "")
		if zres.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(zres.Header.Get("Vary"), "Accept-Encoding") {
			t.Fatalf("%s with gzip accepted: Content-Encoding %q, Vary %q", path, zres.Header.Get("Content-Encoding"), zres.Header.Get("Vary"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(zbody))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, _ := io.ReadAll(zr)
		if !bytes.Equal(unzipped, plain) || len(zbody) >= len(plain) {
			t.Fatalf("%s: the gzipped body (%d bytes) is not the file (%d bytes) made smaller", path, len(zbody), len(plain))
		}
		if res, _ := get(path, "gzip;q=0", ""); res.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s: gzip;q=0 was answered gzipped", path)
		}
		if res, b := get(path, "gzip", zres.Header.Get("ETag")); res.StatusCode != 304 || len(b) != 0 {
			t.Fatalf("%s revalidated with its ETag: %d, %d bytes", path, res.StatusCode, len(b))
		}
		// Each encoding has its own ETag: the gzipped one does not validate
		// a plain copy, nor the plain one a gzipped copy.
		if zres.Header.Get("ETag") == plainRes.Header.Get("ETag") {
			t.Fatalf("%s: gzip and plain bodies share the ETag %s", path, zres.Header.Get("ETag"))
		}
		if res, _ := get(path, "identity", zres.Header.Get("ETag")); res.StatusCode != 200 {
			t.Fatalf("%s: a plain request revalidated with the gzip ETag: %d", path, res.StatusCode)
		}
	}
}
