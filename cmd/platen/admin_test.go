package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/testnode"
)

// TestAdminInviteAndResetLink runs the operator's verbs for people against a
// real node: an invitation and a reset each print a one-time link once.
func TestAdminInviteAndResetLink(t *testing.T) {
	n := testnode.Start(t, nil)
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := admin(append([]string{"--url", n.URL, "--token", n.OperatorToken}, args...), &out)
		return out.String(), err
	}
	out, err := run("invite", n.OrgID, "Ada@Example.com", "owner")
	if err != nil || !strings.Contains(out, n.Direct+"/link#pll_") || !strings.Contains(out, `"role": "owner"`) || !strings.Contains(out, "ada@example.com") {
		t.Fatalf("invite: %v\n%s", err, out)
	}
	if _, err := run("invite", n.OrgID, "not-an-email"); err == nil || !strings.Contains(err.Error(), "email") {
		t.Fatalf("invite with a bad email: %v", err)
	}
	if _, err := run("reset-link", "nobody@example.com"); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Fatalf("reset link for nobody: %v", err)
	}
	if _, err := run("invite"); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("invite without arguments: %v", err)
	}
}

// TestAdminCreateKeyAll gives "all" every scope the node knows, the key
// scopes included.
func TestAdminCreateKeyAll(t *testing.T) {
	n := testnode.Start(t, nil)
	var out bytes.Buffer
	if err := admin([]string{"--url", n.URL, "--token", n.OperatorToken, "create-key", n.OrgID, "ops", "all"}, &out); err != nil {
		t.Fatalf("create-key all: %v\n%s", err, out.String())
	}
	for _, s := range auth.AllScopes() {
		if !strings.Contains(out.String(), `"`+s+`"`) {
			t.Errorf("create-key all lacks %s:\n%s", s, out.String())
		}
	}
}
