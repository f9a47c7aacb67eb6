package transport_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/poll"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/storage"
)

// TestKeysOverTheAPI is /v1/keys: a key with keys.write makes keys no
// stronger than itself, lists them without values, and revokes its
// organisation's keys but not another's.
func TestKeysOverTheAPI(t *testing.T) {
	n := testnode.Start(t, nil)
	_, maker := createKey(t, n, n.OrgID, "keys.write", "keys.read", "templates.read", "documents.generate")
	_, reader := createKey(t, n, n.OrgID, "keys.read")
	other := createOrg(t, n, "Other", storage.PlanSandbox)
	otherID, _ := createKey(t, n, other, "templates.read")

	// More than it holds: refused, naming the scope, and nothing made.
	r := testnode.Do(t, "POST", n.URL+"/v1/keys", maker, map[string]any{"name": "ci", "scopes": []string{"templates.read", "wallet.read"}})
	if r.Status != http.StatusForbidden || r.Code() != "FORBIDDEN" || r.Field() != "scopes" || !strings.Contains(r.Message(), "wallet.read") {
		t.Fatalf("escalation: %s", r)
	}
	r = testnode.Do(t, "POST", n.URL+"/v1/keys", maker, map[string]any{"name": "ci", "scopes": []string{"webhooks.write"}})
	if r.Status != http.StatusForbidden || r.Field() != "scopes" || !strings.Contains(r.Message(), "webhooks.write") {
		t.Fatalf("escalation: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/keys", reader, map[string]any{"name": "ci", "scopes": []string{"keys.read"}}); r.Status != http.StatusForbidden || !strings.Contains(r.Message(), "keys.write") {
		t.Fatalf("keys.read made a key: %s", r)
	}
	if r := testnode.Do(t, "POST", n.URL+"/v1/keys", maker, map[string]any{"name": "ci", "scopes": []string{"nope"}}); r.Status != http.StatusBadRequest || r.Field() != "scopes[0]" {
		t.Fatalf("unknown scope: %s", r)
	}

	// What it holds (documents.read through documents.generate): made, shown once.
	r = testnode.Do(t, "POST", n.URL+"/v1/keys", maker, map[string]any{"name": "ci", "scopes": []string{"templates.read", "documents.read"}})
	if r.Status != http.StatusCreated || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("create: %s %v", r, r.Header)
	}
	made := testnode.DataAs[testnode.Key](t, r)
	if made.Key == "" || !strings.HasPrefix(made.Key, made.Prefix) || made.OrgID != n.OrgID || len(made.Scopes) != 2 || made.LastUsedAt != nil {
		t.Fatalf("made %+v", made)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates", made.Key, nil); r.Status != http.StatusOK {
		t.Fatalf("the new key: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/wallet", made.Key, nil); r.Status != http.StatusForbidden {
		t.Fatalf("the new key reads the wallet: %s", r)
	}

	// The list: newest first, no values, last use recorded.
	r = testnode.Do(t, "GET", n.URL+"/v1/keys", reader, nil)
	if r.Status != http.StatusOK || strings.Contains(string(r.Body), made.Key) {
		t.Fatalf("list: %s", r)
	}
	list := testnode.DataAs[testnode.List[testnode.Key]](t, r)
	if len(list.Items) != 4 || list.Items[0].ID != made.ID || list.Items[3].Name != "first key" {
		t.Fatalf("list %+v", list.Items)
	}
	for _, k := range list.Items {
		if k.Key != "" || k.OrgID != n.OrgID {
			t.Fatalf("listed %+v", k)
		}
	}
	poll.Until(t, 10*time.Second, func() error {
		for _, k := range testnode.DataAs[testnode.List[testnode.Key]](t, testnode.Do(t, "GET", n.URL+"/v1/keys", reader, nil)).Items {
			if k.ID == made.ID && k.LastUsedAt != nil {
				return nil
			}
		}
		return errors.New("the new key's use is not recorded")
	})

	// Revoke: another organisation's is not found; its own works at once.
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+otherID, maker, nil); r.Status != http.StatusNotFound {
		t.Fatalf("revoked another org's key: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/key_nope", maker, nil); r.Status != http.StatusNotFound {
		t.Fatalf("unknown key: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+made.ID, reader, nil); r.Status != http.StatusForbidden {
		t.Fatalf("keys.read revoked: %s", r)
	}
	r = testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+made.ID, maker, nil)
	if r.Status != http.StatusOK || testnode.DataAs[testnode.Key](t, r).RevokedAt == nil {
		t.Fatalf("revoke: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates", made.Key, nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("a revoked key works: %s", r)
	}

	// The first key holds the key scopes, and the index lists them.
	idx := testnode.Do(t, "GET", n.URL+"/v1", n.Key, nil)
	if !strings.Contains(string(idx.Body), `"keys.write"`) || !strings.Contains(string(idx.Body), `"/v1/keys/:keyId"`) {
		t.Fatalf("index: %s", idx)
	}
}

// TestKeyRevokesOnlyKeysNoStrongerThanItself is creation's rule applied to
// revoking through /v1/keys: a key with keys.write may not revoke a key
// holding a scope it lacks (the owner's all-scope key, say), but may revoke
// a key no stronger than itself and itself; the console's owner and the
// operator revoke any key.
func TestKeyRevokesOnlyKeysNoStrongerThanItself(t *testing.T) {
	n := testnode.Start(t, nil)
	weakID, weak := createKey(t, n, n.OrgID, "keys.write", "templates.read")
	strongID, strong := createKey(t, n, n.OrgID, "keys.write", "keys.read", "templates.read", "wallet.read")
	peerID, _ := createKey(t, n, n.OrgID, "templates.read")

	r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+strongID, weak, nil)
	if r.Status != http.StatusForbidden || r.Code() != "FORBIDDEN" || !strings.Contains(r.Message(), "keys.read") {
		t.Fatalf("a weaker key revoked a stronger one: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/keys", strong, nil); r.Status != http.StatusOK {
		t.Fatalf("the stronger key after the refusal: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+peerID, weak, nil); r.Status != http.StatusOK {
		t.Fatalf("revoking a key no stronger: %s", r)
	}

	// The console's owner holds every scope.
	owner := newPerson(t, n)
	owner.accept(n.OwnerLink, "ada@example.com", "correct horse battery")
	owner.must(200, "DELETE", "/console/api/keys/"+strongID, nil)

	// The operator revokes any key; a key revokes itself.
	allID, _ := createKey(t, n, n.OrgID, "keys.write", "keys.read", "templates.read", "templates.write", "wallet.read")
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+allID, weak, nil); r.Status != http.StatusForbidden {
		t.Fatalf("a weaker key revoked a stronger one: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/admin/v1/orgs/"+n.OrgID+"/keys/"+allID, n.OperatorToken, nil); r.Status != http.StatusOK {
		t.Fatalf("the operator's revoke: %s", r)
	}
	if r := testnode.Do(t, "DELETE", n.URL+"/v1/keys/"+weakID, weak, nil); r.Status != http.StatusOK {
		t.Fatalf("a key revoking itself: %s", r)
	}
	if r := testnode.Do(t, "GET", n.URL+"/v1/templates", weak, nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("a revoked key works: %s", r)
	}
}
