package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"math/big"
	"slices"
	"strings"
)

// Scope is a permission a key can hold.
type Scope string

// The scopes (docs/design.md "Scopes"). GET /v1 needs only a valid key.
const (
	DocumentsGenerate Scope = "documents.generate"
	DocumentsRead     Scope = "documents.read"
	TemplatesRead     Scope = "templates.read"
	TemplatesWrite    Scope = "templates.write"
	WebhooksRead      Scope = "webhooks.read"
	WebhooksWrite     Scope = "webhooks.write"
	WalletRead        Scope = "wallet.read"
	KeysRead          Scope = "keys.read"
	KeysWrite         Scope = "keys.write"
	SigningRead       Scope = "signing.read"
	SigningWrite      Scope = "signing.write"
)

// ScopeInfo is a scope with the label shown to people.
type ScopeInfo struct {
	Scope Scope  `json:"scope"`
	Label string `json:"label"`
}

// Scopes lists every scope in a stable order, with its label.
var Scopes = []ScopeInfo{
	{DocumentsGenerate, "Generate documents, regenerate them and read them"},
	{DocumentsRead, "Read documents and download links"},
	{TemplatesRead, "Read templates, versions and the starter library"},
	{TemplatesWrite, "Create, change, activate and archive templates"},
	{WebhooksRead, "Read webhook endpoints and their deliveries"},
	{WebhooksWrite, "Create, change, ping and delete webhook endpoints"},
	{WalletRead, "Read the plan, allowance, balance and ledger"},
	{KeysRead, "List the organisation's API keys"},
	{KeysWrite, "Create API keys with scopes of its own, and revoke keys"},
	{SigningRead, "List the organisation's signing certificates"},
	{SigningWrite, "Upload and delete signing certificates"},
}

// AllScopes returns every scope's name.
func AllScopes() []string {
	out := make([]string, len(Scopes))
	for i, s := range Scopes {
		out[i] = string(s.Scope)
	}
	return out
}

// Known reports whether s is a scope.
func Known(s string) bool {
	return slices.ContainsFunc(Scopes, func(i ScopeInfo) bool { return string(i.Scope) == s })
}

// Label returns the label of s.
func Label(s string) string {
	for _, i := range Scopes {
		if string(i.Scope) == s {
			return i.Label
		}
	}
	return s
}

// Grants reports whether a key holding held may do what needs requires.
// documents.generate includes documents.read, as docs/design.md "Scopes" says.
func Grants(held []string, requires Scope) bool {
	if slices.Contains(held, string(requires)) {
		return true
	}
	return requires == DocumentsRead && slices.Contains(held, string(DocumentsGenerate))
}

// KeyPrefix starts every API key value, so a leaked key is recognisable.
const KeyPrefix = "plt_"

// LooksLikeKey reports whether s has the shape of an API key: the prefix and
// 43 base62 characters (256 bits).
func LooksLikeKey(s string) bool {
	if len(s) != len(KeyPrefix)+43 || s[:len(KeyPrefix)] != KeyPrefix {
		return false
	}
	for _, c := range s[len(KeyPrefix):] {
		if !strings.ContainsRune(base62, c) {
			return false
		}
	}
	return true
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewSecret returns a fresh random value with the given prefix: 43 base62
// characters, 256 bits.
func NewSecret(prefix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	max := big.NewInt(int64(len(base62)))
	for i := 0; i < 43; i++ {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("auth: crypto/rand failed: " + err.Error())
		}
		b.WriteByte(base62[n.Int64()])
	}
	return b.String()
}

// Hash returns the hex SHA-256 of a secret: what is stored in its place.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Equal compares two hashes in constant time.
func Equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// DisplayPrefix is the part of a key value kept to tell keys apart.
func DisplayPrefix(secret string) string {
	if len(secret) > len(KeyPrefix)+6 {
		return secret[:len(KeyPrefix)+6]
	}
	return secret
}
