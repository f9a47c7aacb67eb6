package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/platen/platen/billing"
)

// Org is an organisation: the unit of isolation, billing and actor ownership.
type Org struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Plan      string    `json:"plan"`
	CreatedAt time.Time `json:"createdAt"`
	// Version counts the org-scoped commands applied to this org. A command must
	// carry the current value to be applied (ErrStale otherwise).
	Version uint64 `json:"version"`
	// BalanceMicros is the wallet balance: the sum of the org's ledger rows.
	BalanceMicros int64 `json:"balanceMicros"`
	// LedgerSeq is the last sequence number used in the org's ledger.
	LedgerSeq uint64 `json:"ledgerSeq"`
	// UsagePeriod is the calendar month (UTC, "2006-01") PagesUsed counts in.
	UsagePeriod string `json:"usagePeriod,omitempty"`
	// PagesUsed is the pages charged to the allowance in UsagePeriod.
	PagesUsed int64 `json:"pagesUsed"`
	// HeldPages and HeldMicros are what documents still rendering have
	// reserved against the allowance and the wallet.
	HeldPages  int64 `json:"heldPages"`
	HeldMicros int64 `json:"heldMicros"`
	// RateLimit and RateBurst, when set, are each of the org's keys'
	// requests a second and burst, whatever its plan says.
	RateLimit float64 `json:"rateLimit,omitempty"`
	RateBurst int     `json:"rateBurst,omitempty"`
}

// RateLimits are an API key's requests a second and burst; zero fields
// are unset.
type RateLimits struct {
	PerSecond float64
	Burst     int
}

// RateLimits is what a key of the org may do: the org's own limits, else
// its plan's, else def (the node's), each field on its own.
func (o Org) RateLimits(plan Plan, def RateLimits) RateLimits {
	out := def
	switch {
	case o.RateLimit > 0:
		out.PerSecond = o.RateLimit
	case plan.RateLimit > 0:
		out.PerSecond = plan.RateLimit
	}
	switch {
	case o.RateBurst > 0:
		out.Burst = o.RateBurst
	case plan.RateBurst > 0:
		out.Burst = plan.RateBurst
	}
	return out
}

// Period is the calendar month (UTC) of t, as usage periods are written
// (billing.Period).
func Period(t time.Time) string { return billing.Period(t) }

// PagesUsedIn returns the allowance pages used in the month of t: zero when
// the stored count is for an earlier month.
func (o Org) PagesUsedIn(t time.Time) int64 { return o.Account().UsedIn(t) }

// Account is where the org's billing stands, as package billing prices it.
func (o Org) Account() billing.Account {
	return billing.Account{Period: o.UsagePeriod, PagesUsed: o.PagesUsed, HeldPages: o.HeldPages,
		HeldMicros: o.HeldMicros, BalanceMicros: o.BalanceMicros}
}

// setAccount writes a's fields back into the org.
func (o *Org) setAccount(a billing.Account) {
	o.UsagePeriod, o.PagesUsed, o.HeldPages, o.HeldMicros, o.BalanceMicros = a.Period, a.PagesUsed, a.HeldPages, a.HeldMicros, a.BalanceMicros
}

// APIKey is an API key. The key's value is never stored, only its hash.
type APIKey struct {
	ID     string   `json:"id"`
	OrgID  string   `json:"orgId"`
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	// Hash is the hex SHA-256 of the key's value.
	Hash string `json:"hash"`
	// Prefix is the start of the value, shown so a person can tell keys apart.
	Prefix    string     `json:"prefix"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
	// LastUsedAt is when the key last authenticated a request, recorded at
	// most every few minutes per node (transport/auth.go).
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
}

// Ledger row kinds.
const (
	LedgerCredit = "credit"
	LedgerDebit  = "debit"
)

// LedgerEntry is one append-only row of an org's wallet ledger.
type LedgerEntry struct {
	ID                 string    `json:"id"`
	OrgID              string    `json:"orgId"`
	Seq                uint64    `json:"seq"`
	Kind               string    `json:"kind"`
	AmountMicros       int64     `json:"amountMicros"`
	BalanceAfterMicros int64     `json:"balanceAfterMicros"`
	Reference          string    `json:"reference,omitempty"`
	At                 time.Time `json:"at"`
}

// WalletCreditedData is the data of a wallet.credited event.
type WalletCreditedData struct {
	LedgerEntryID string `json:"ledgerEntryId"`
	AmountMicros  int64  `json:"amountMicros"`
	BalanceMicros int64  `json:"balanceMicros"`
	Reference     string `json:"reference"`
}

// WalletDebitedData is the data of a wallet.debited event: a completed
// document's pages beyond the allowance (documents.go writes it).
type WalletDebitedData struct {
	LedgerEntryID string `json:"ledgerEntryId"`
	DocumentID    string `json:"documentId"`
	Pages         int64  `json:"pages"`
	AmountMicros  int64  `json:"amountMicros"`
	BalanceMicros int64  `json:"balanceMicros"`
}

// CreateOrg creates an organisation.
type CreateOrg struct {
	Name string `json:"name"`
	Plan string `json:"plan"`
}

// SetPlan moves an organisation to another plan.
type SetPlan struct {
	Plan string `json:"plan"`
}

// SetRateLimit sets or clears (0) an org's own rate limit and burst.
type SetRateLimit struct {
	RateLimit float64 `json:"rateLimit"`
	RateBurst int     `json:"rateBurst"`
}

// CreateKey stores a new API key.
type CreateKey struct {
	Key APIKey `json:"key"`
}

// RevokeKey revokes an API key: it stops authenticating at once.
type RevokeKey struct {
	KeyID string `json:"keyId"`
}

// CreditWallet appends a credit row to the ledger and emits wallet.credited.
type CreditWallet struct {
	EntryID      string `json:"entryId"`
	EventID      string `json:"eventId"`
	AmountMicros int64  `json:"amountMicros"`
	Reference    string `json:"reference"`
}

// Keys of organisations, API keys and the wallet ledger.
//
//	o/<orgID>             Org
//	k/<keyID>             APIKey
//	kh/<sha256 hex>       keyID, for authentication
//	ok/<orgID>/<keyID>    empty: an org's keys
//	l/<orgID>/<seq>       LedgerEntry, seq big-endian
//	lr/<orgID>/<ref>      seq of the ledger row with that reference
var orgsPrefix = []byte("o/")

func orgKey(orgID string) []byte        { return append(append([]byte(nil), orgsPrefix...), orgID...) }
func apiKeyKey(keyID string) []byte     { return []byte("k/" + keyID) }
func keyHashKey(hash string) []byte     { return []byte("kh/" + hash) }
func orgKeysPrefix(orgID string) []byte { return []byte("ok/" + orgID + "/") }
func orgKeyIndex(orgID, keyID string) []byte {
	return append(orgKeysPrefix(orgID), keyID...)
}
func ledgerPrefix(orgID string) []byte { return []byte("l/" + orgID + "/") }
func ledgerKey(orgID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(ledgerPrefix(orgID), seq)
}
func ledgerRefKey(orgID, ref string) []byte { return []byte("lr/" + orgID + "/" + ref) }

// ApplyToOrg applies the org-record part of an org-scoped command to o: the
// version check and every field of Org the command changes. The FSM calls it on
// the stored record and the org actor on its own copy, so both stay equal
// without the actor re-reading storage after each change.
func ApplyToOrg(o *Org, c *Command) error {
	_, err := applyToOrg(o, c)
	return err
}

// applyToOrg is ApplyToOrg, also returning what a completion charged, so the
// state machine writes the document's charge and ledger row from the same
// price that moved the org.
func applyToOrg(o *Org, c *Command) (Charge, error) {
	var charge Charge
	if c.Kind == KindCreateOrg {
		if o.ID != "" {
			return charge, fmt.Errorf("%w: organisation %s exists", ErrConflict, o.ID)
		}
		*o = Org{ID: c.OrgID, Name: c.CreateOrg.Name, Plan: c.CreateOrg.Plan, CreatedAt: c.At, Version: 1}
		return charge, nil
	}
	if o.ID == "" {
		return charge, fmt.Errorf("%w: organisation %s", ErrNotFound, c.OrgID)
	}
	if o.Version != c.Expect {
		return charge, fmt.Errorf("%w: %s at version %d, command expects %d", ErrStale, o.ID, o.Version, c.Expect)
	}
	switch c.Kind {
	case KindSetPlan:
		o.Plan = c.SetPlan.Plan
	case KindSetRateLimit:
		if l := c.SetRateLimit; l.RateLimit < 0 || l.RateBurst < 0 {
			return charge, fmt.Errorf("%w: a negative rate limit", ErrCodec)
		}
		o.RateLimit, o.RateBurst = c.SetRateLimit.RateLimit, c.SetRateLimit.RateBurst
	case KindCreateKey, KindRevokeKey, KindUpdateTemplate, KindCreateTemplate, KindSaveVersion, KindActivateVersion:
	case KindCreateDocument:
		h := c.CreateDocument.Document.Hold
		if h.Pages < 0 || h.Micros < 0 {
			return charge, fmt.Errorf("%w: a negative hold", ErrCodec)
		}
		o.HeldPages += h.Pages
		o.HeldMicros += h.Micros
	case KindCompleteDocument, KindFailDocument:
		r := c.DocumentChange.Release
		o.HeldPages -= r.Pages
		o.HeldMicros -= r.Micros
		if c.Kind == KindCompleteDocument {
			charge = Settle(o, int64(c.DocumentChange.PageCount), r, c.DocumentChange.Terms, c.At)
		}
	case KindRecordDocument:
		// Held and released in the same command: only the charge moves
		// the org (checkRecord made sure the release is the hold).
		if err := checkRecord(c); err != nil {
			return charge, err
		}
		if h := c.RecordDocument.Create.Document.Hold; h.Pages < 0 || h.Micros < 0 {
			return charge, fmt.Errorf("%w: a negative hold", ErrCodec)
		}
		if r := c.RecordDocument; r.Outcome == KindCompleteDocument {
			if r.OthersHeld.Pages < 0 || r.OthersHeld.Micros < 0 {
				return charge, fmt.Errorf("%w: a negative hold", ErrCodec)
			}
			o.HeldPages += r.OthersHeld.Pages
			o.HeldMicros += r.OthersHeld.Micros
			charge = Settle(o, int64(r.Finish.PageCount), r.Finish.Release, r.Finish.Terms, c.At)
			o.HeldPages -= r.OthersHeld.Pages
			o.HeldMicros -= r.OthersHeld.Micros
		}
	case KindStartRender, KindRecordDownload, KindExpireDocument, KindCreateEndpoint,
		KindCreateSigningCertificate, KindDeleteSigningCertificate:
	case KindCreditWallet:
		o.BalanceMicros += c.CreditWallet.AmountMicros
		o.LedgerSeq++
	default:
		return charge, fmt.Errorf("%w: %s is not an org command", ErrCodec, c.Kind)
	}
	o.Version++
	return charge, nil
}

// Settle charges a completed document's pages to an org on terms at time at,
// as billing.Charge prices them, and moves the org by the charge: allowance
// used, wallet debited, and a ledger sequence number taken when the wallet
// pays. The org's hold for the document must already be released; hold, that
// released hold, does not change the price. ApplyToOrg calls it on a
// completion, and the document's Charge and ledger row are written from what
// it returns.
func Settle(o *Org, pages int64, hold Hold, terms PlanTerms, at time.Time) Charge {
	s := billing.Charge(o.Account(), terms, pages, at)
	o.setAccount(o.Account().After(s, at))
	if s.Micros > 0 {
		o.LedgerSeq++
	}
	return Charge{Split: s}
}

// applyOrgRecord applies a command whose only change is the org record
// itself (KindCreateOrg, KindSetPlan, KindSetRateLimit): inOrg writes it.
func applyOrgRecord(*txn, *Command) error { return nil }

func applyCreateKey(t *txn, c *Command) error {
	k := c.CreateKey.Key
	if _, err := getRaw(t.b, apiKeyKey(k.ID)); err == nil {
		return fmt.Errorf("%w: key %s exists", ErrConflict, k.ID)
	}
	if _, err := getRaw(t.b, keyHashKey(k.Hash)); err == nil {
		return fmt.Errorf("%w: key value in use", ErrConflict)
	}
	t.set(apiKeyKey(k.ID), mustEncode(&k))
	t.set(keyHashKey(k.Hash), []byte(k.ID))
	t.set(orgKeyIndex(c.OrgID, k.ID), nil)
	return t.err
}

// applyRevokeKey revokes a key of the command's org; revoking a revoked key
// changes nothing but the org's version.
func applyRevokeKey(t *txn, c *Command) error {
	var key APIKey
	if err := getRecord(t.b, apiKeyKey(c.RevokeKey.KeyID), &key); err != nil {
		return err
	}
	if key.OrgID != c.OrgID {
		return fmt.Errorf("%w: key %s", ErrNotFound, c.RevokeKey.KeyID)
	}
	if key.RevokedAt == nil {
		at := c.At
		key.RevokedAt = &at
		t.set(apiKeyKey(key.ID), mustEncode(&key))
		t.delete(keyHashKey(key.Hash))
	}
	return t.err
}

// applyCreditWallet appends the credit's ledger row, at the sequence number
// and balance ApplyToOrg gave the org, and emits wallet.credited. A
// reference may be used once per org.
func applyCreditWallet(t *txn, c *Command) error {
	cw, o := c.CreditWallet, t.org
	if cw.Reference != "" {
		if _, err := getRaw(t.b, ledgerRefKey(c.OrgID, cw.Reference)); err == nil {
			return fmt.Errorf("%w: reference %q already used", ErrConflict, cw.Reference)
		}
	}
	entry := LedgerEntry{
		ID: cw.EntryID, OrgID: o.ID, Seq: o.LedgerSeq, Kind: LedgerCredit,
		AmountMicros: cw.AmountMicros, BalanceAfterMicros: o.BalanceMicros,
		Reference: cw.Reference, At: c.At,
	}
	t.set(ledgerKey(o.ID, entry.Seq), mustEncode(&entry))
	if entry.Reference != "" {
		t.set(ledgerRefKey(o.ID, entry.Reference), binary.BigEndian.AppendUint64(nil, entry.Seq))
	}
	t.emit(o.ID, EventWalletCredited, cw.EventID, c.At, WalletCreditedData{
		LedgerEntryID: cw.EntryID, AmountMicros: cw.AmountMicros, BalanceMicros: o.BalanceMicros, Reference: cw.Reference,
	})
	return t.err
}

// Org returns an organisation.
func (s *Store) Org(id string) (Org, error) {
	var o Org
	err := getRecord(s.db, orgKey(id), &o)
	return o, err
}

// Orgs returns every organisation, in id order.
func (s *Store) Orgs() ([]Org, error) {
	return decodeRange[Org](s, orgsPrefix, prefixEnd(orgsPrefix), 0)
}

// APIKey returns a key record by id.
func (s *Store) APIKey(id string) (APIKey, error) {
	var k APIKey
	err := getRecord(s.db, apiKeyKey(id), &k)
	return k, err
}

// APIKeyByHash returns the live (not revoked) key whose value hashes to hash.
func (s *Store) APIKeyByHash(hash string) (APIKey, error) {
	id, err := getRaw(s.db, keyHashKey(hash))
	if err != nil {
		return APIKey{}, err
	}
	k, err := s.APIKey(string(id))
	if err != nil {
		return APIKey{}, err
	}
	if k.RevokedAt != nil {
		return APIKey{}, ErrNotFound
	}
	return k, nil
}

// OrgKeys returns an organisation's keys, revoked ones included, oldest first.
func (s *Store) OrgKeys(orgID string) ([]APIKey, error) {
	return lookupIndex(s, orgKeysPrefix(orgID), s.APIKey)
}

// Ledger returns an organisation's ledger rows, oldest first; limit 0 means all.
func (s *Store) Ledger(orgID string, limit int) ([]LedgerEntry, error) {
	prefix := ledgerPrefix(orgID)
	return decodeRange[LedgerEntry](s, prefix, prefixEnd(prefix), limit)
}

// LedgerAfter returns an organisation's ledger rows after sequence number
// after, oldest first, at most limit.
func (s *Store) LedgerAfter(orgID string, after uint64, limit int) ([]LedgerEntry, error) {
	return decodeRange[LedgerEntry](s, ledgerKey(orgID, after+1), prefixEnd(ledgerPrefix(orgID)), limit)
}

// LedgerRecent returns an organisation's newest ledger rows, newest first.
func (s *Store) LedgerRecent(orgID string, limit int) ([]LedgerEntry, error) {
	var out []LedgerEntry
	err := s.newestFirst(ledgerPrefix(orgID), "", limit, func(_ string, v []byte) (bool, error) {
		var e LedgerEntry
		if err := decode(v, &e); err != nil {
			return false, err
		}
		out = append(out, e)
		return true, nil
	})
	return out, err
}

// LedgerByReference returns the ledger row written with reference.
func (s *Store) LedgerByReference(orgID, reference string) (LedgerEntry, error) {
	raw, err := getRaw(s.db, ledgerRefKey(orgID, reference))
	if err != nil {
		return LedgerEntry{}, err
	}
	if len(raw) != 8 {
		return LedgerEntry{}, fmt.Errorf("%w: reference index", ErrCodec)
	}
	var e LedgerEntry
	err = getRecord(s.db, ledgerKey(orgID, binary.BigEndian.Uint64(raw)), &e)
	return e, err
}

// LedgerBefore returns up to limit of an organisation's ledger rows with a
// sequence number below before (0: from the newest), newest first: the
// wallet's ledger, a page at a time.
func (s *Store) LedgerBefore(orgID string, before uint64, limit int) ([]LedgerEntry, error) {
	cursor := ""
	if before > 0 {
		cursor = string(binary.BigEndian.AppendUint64(nil, before))
	}
	var out []LedgerEntry
	err := s.newestFirst(ledgerPrefix(orgID), cursor, limit, func(_ string, v []byte) (bool, error) {
		var e LedgerEntry
		if err := decode(v, &e); err != nil {
			return false, err
		}
		out = append(out, e)
		return true, nil
	})
	return out, err
}
