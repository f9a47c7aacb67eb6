package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/testnode"
)

// adminOn runs `platen admin` against n with its operator token, and
// returns what it printed.
func adminOn(n *testnode.Node) func(args ...string) (string, error) {
	return func(args ...string) (string, error) {
		var out bytes.Buffer
		err := admin(append([]string{"--url", n.URL, "--token", n.OperatorToken}, args...), &out)
		return out.String(), err
	}
}

// TestAdminInviteAndResetLink runs the operator's verbs for people against a
// real node: an invitation and a reset each print a one-time link once.
func TestAdminInviteAndResetLink(t *testing.T) {
	n := testnode.Start(t, nil)
	run := adminOn(n)
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

// TestAdminSetRate sets an organisation's and a plan's rate, and refuses
// one out of bounds.
func TestAdminSetRate(t *testing.T) {
	n := testnode.Start(t, nil)
	run := adminOn(n)
	if out, err := run("set-rate", n.OrgID, "200", "400"); err != nil || !strings.Contains(out, `"rateLimit": 200`) || !strings.Contains(out, `"rateBurst": 400`) {
		t.Fatalf("set-rate for an organisation: %v\n%s", err, out)
	}
	if out, err := run("set-rate", "plan:growth", "500", "1000"); err != nil || !strings.Contains(out, `"rateLimit": 500`) {
		t.Fatalf("set-rate for a plan: %v\n%s", err, out)
	}
	if _, err := run("set-rate", n.OrgID, "-1", "10"); err == nil || !strings.Contains(err.Error(), "rateLimit") {
		t.Fatalf("a negative rate: %v", err)
	}
	if _, err := run("set-rate", n.OrgID, "fast", "10"); err == nil || !strings.Contains(err.Error(), "rate") {
		t.Fatalf("a rate that is not a number: %v", err)
	}
}
