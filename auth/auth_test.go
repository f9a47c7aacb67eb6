package auth

import (
	"strings"
	"testing"
)

func TestSecretsAreRandomAndOnlyHashesMatch(t *testing.T) {
	a, b := NewSecret(KeyPrefix), NewSecret(KeyPrefix)
	if a == b || !strings.HasPrefix(a, KeyPrefix) || len(a) != len(KeyPrefix)+43 {
		t.Fatalf("secrets %q %q", a, b)
	}
	if Hash(a) == Hash(b) || len(Hash(a)) != 64 || strings.Contains(Hash(a), a[len(KeyPrefix):]) {
		t.Fatal("hash does not hide or tell apart the secrets")
	}
	if !Equal(Hash(a), Hash(a)) || Equal(Hash(a), Hash(b)) {
		t.Fatal("Equal is wrong")
	}
	if p := DisplayPrefix(a); len(p) != 10 || !strings.HasPrefix(a, p) {
		t.Fatalf("display prefix %q", p)
	}
}

func TestGrants(t *testing.T) {
	cases := []struct {
		held []string
		need Scope
		want bool
	}{
		{[]string{"templates.read"}, TemplatesRead, true},
		{[]string{"templates.read"}, TemplatesWrite, false},
		{[]string{"documents.generate"}, DocumentsRead, true},
		{[]string{"documents.read"}, DocumentsGenerate, false},
		{nil, WalletRead, false},
	}
	for _, c := range cases {
		if got := Grants(c.held, c.need); got != c.want {
			t.Errorf("Grants(%v, %s) = %v", c.held, c.need, got)
		}
	}
	for _, s := range AllScopes() {
		if !Known(s) || Label(s) == s {
			t.Errorf("scope %s lacks a label", s)
		}
	}
	if Known("admin") {
		t.Error("unknown scope reported known")
	}
}
