package storage

import (
	"encoding/json"
	"time"

	"github.com/platen/platen/billing"
)

// Plan names. The catalogue of plans and their terms is in Plans.
const (
	PlanSandbox = "sandbox"
	PlanStarter = "starter"
	PlanGrowth  = "growth"
)

// Plan is the terms an organisation is billed on (DESIGN.md "Money").
type Plan struct {
	Name string `json:"name"`
	// MonthlyPages is the allowance per calendar month (UTC).
	MonthlyPages int64 `json:"monthlyPages"`
	// PageRateMicros is the wallet charge per page beyond the allowance; zero
	// with Wallet false means pages beyond the allowance are refused.
	PageRateMicros int64 `json:"pageRateMicros"`
	// Wallet says whether pages beyond the allowance are charged to a wallet.
	Wallet bool `json:"wallet"`
	// Watermark says whether documents carry the sandbox watermark.
	Watermark bool `json:"watermark"`
}

// DefaultPlans returns the plans of DESIGN.md "Money".
func DefaultPlans() map[string]Plan {
	return map[string]Plan{
		PlanSandbox: {Name: PlanSandbox, MonthlyPages: 100, Watermark: true},
		PlanStarter: {Name: PlanStarter, MonthlyPages: 1000, PageRateMicros: 5000, Wallet: true},
		PlanGrowth:  {Name: PlanGrowth, MonthlyPages: 10000, PageRateMicros: 3000, Wallet: true},
	}
}

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

// WalletDebitedData is the data of a wallet.debited event.
type WalletDebitedData struct {
	LedgerEntryID string `json:"ledgerEntryId"`
	DocumentID    string `json:"documentId"`
	Pages         int64  `json:"pages"`
	AmountMicros  int64  `json:"amountMicros"`
	BalanceMicros int64  `json:"balanceMicros"`
}

// Event kinds of the change feed and webhooks (spec "Events").
const (
	EventDocumentCompleted = "document.completed"
	EventDocumentFailed    = "document.failed"
	EventTemplateActivated = "template.activated"
	EventWalletCredited    = "wallet.credited"
	EventWalletDebited     = "wallet.debited"
)

// Event is one entry of an org's change feed, written in the same batch as the
// state change it reports.
type Event struct {
	ID    string          `json:"id"`
	OrgID string          `json:"orgId"`
	Seq   uint64          `json:"seq"`
	Kind  string          `json:"kind"`
	At    time.Time       `json:"at"`
	Data  json.RawMessage `json:"data"`
}

// Template kinds.
const (
	TemplateWritten = "written"
	// TemplatePDF is a template made from an uploaded PDF: its versions
	// mark text pieces of the upload as fields.
	TemplatePDF = "pdf"
)

// Template is a template record; its versions are TemplateVersion records.
type Template struct {
	ID          string `json:"id"`
	OrgID       string `json:"orgId"`
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Kind        string `json:"kind"`
	// ActiveVersion is the version that generates; 0 before any is active.
	ActiveVersion int `json:"activeVersion"`
	// LatestVersion is the highest version number saved.
	LatestVersion int    `json:"latestVersion"`
	CopiedFrom    string `json:"copiedFrom,omitempty"`
	// Source is the uploaded PDF of a TemplatePDF template.
	Source     *PDFSource `json:"source,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	ArchivedAt *time.Time `json:"archivedAt,omitempty"`
}

// PDFSource is the upload a TemplatePDF template was made from. The file is
// a blob; its text pieces are stored apart (TemplatePieces).
type PDFSource struct {
	Filename string `json:"filename"`
	BlobHash string `json:"blobHash"`
	// BlobHolders are the nodes that held the file when the template was
	// created.
	BlobHolders []string  `json:"blobHolders,omitempty"`
	ByteSize    int64     `json:"byteSize"`
	Pages       []PDFPage `json:"pages"`
	PieceCount  int       `json:"pieceCount"`
}

// PDFPage is one page of an upload, in points as displayed.
type PDFPage struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// When a field's key is missing from a document's data (FormField.WhenMissing).
const (
	WhenMissingDefault  = "default"
	WhenMissingBlank    = "blank"
	WhenMissingOriginal = "original"
)

// FormField marks one text piece of an upload as a field.
type FormField struct {
	PieceID     string `json:"pieceId"`
	Key         string `json:"key"`
	Default     string `json:"default,omitempty"`
	WhenMissing string `json:"whenMissing"`
	Required    bool   `json:"required,omitempty"`
	// Align places a value in the original's width: left (the default),
	// right or center.
	Align string `json:"align,omitempty"`
	// Text is the piece's text when the version was saved: a fill checks
	// the piece still reads so.
	Text string `json:"text,omitempty"`
}

// TemplateVersion is one immutable version of a template: markup for a
// written template, fields for a TemplatePDF one.
type TemplateVersion struct {
	TemplateID string            `json:"templateId"`
	Number     int               `json:"number"`
	HTML       string            `json:"html"`
	Content    json.RawMessage   `json:"content,omitempty"`
	Manifest   json.RawMessage   `json:"manifest,omitempty"`
	SampleData json.RawMessage   `json:"sampleData,omitempty"`
	Assets     map[string]string `json:"assets,omitempty"`
	Fields     []FormField       `json:"fields,omitempty"`
	CreatedAt  time.Time         `json:"createdAt"`
}

// TemplateActivatedData is the data of a template.activated event.
type TemplateActivatedData struct {
	TemplateID      string `json:"templateId"`
	Slug            string `json:"slug"`
	Version         int    `json:"version"`
	PreviousVersion int    `json:"previousVersion"`
}
