package client

import (
	"encoding/json"
	"time"
)

// The types below are the API's records with the JSON names of
// docs/api.md. Optional times are pointers; a field absent from an answer
// keeps its zero value.

// Page is one page of a listing. NextCursor is "" on the last page; ask
// again with it as the Cursor for the next.
type Page[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"nextCursor"`
}

// UnmarshalJSON takes a null nextCursor as "".
func (p *Page[T]) UnmarshalJSON(b []byte) error {
	var raw struct {
		Items      []T     `json:"items"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := decode(b, &raw); err != nil {
		return err
	}
	p.Items, p.NextCursor = raw.Items, ""
	if raw.NextCursor != nil {
		p.NextCursor = *raw.NextCursor
	}
	return nil
}

// items is a listing without pages: {"items": […]}.
type items[T any] struct {
	Items []T `json:"items"`
}

// Document statuses.
const (
	StatusQueued    = "queued"
	StatusRendering = "rendering"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Document is a document record.
type Document struct {
	ID              string `json:"id"`
	Status          string `json:"status"`
	TemplateID      string `json:"templateId"`
	TemplateSlug    string `json:"templateSlug"`
	TemplateVersion int    `json:"templateVersion"`
	CorrelationID   string `json:"correlationId"`
	// PageCount is counted from the finished PDF.
	PageCount int    `json:"pageCount"`
	ByteSize  int64  `json:"byteSize"`
	Filename  string `json:"filename"`
	// DownloadURL is a fresh signed link, valid an hour, on a completed
	// document whose file is kept.
	DownloadURL          string         `json:"downloadUrl,omitempty"`
	DownloadURLExpiresAt *time.Time     `json:"downloadUrlExpiresAt,omitempty"`
	DurationMs           int64          `json:"durationMs"`
	Report               *Report        `json:"report,omitempty"`
	ErrorCode            string         `json:"errorCode,omitempty"`
	Message              string         `json:"message,omitempty"`
	Metadata             map[string]any `json:"metadata,omitempty"`
	Engine               string         `json:"engine,omitempty"`
	EngineReason         string         `json:"engineReason,omitempty"`
	// PDFA is the PDF/A level the request asked for.
	PDFA string `json:"pdfa,omitempty"`
	// PDFUA is "1" when the request asked for PDF/UA-1.
	PDFUA string `json:"pdfua,omitempty"`
	// Sign is the signature the document asks for, from the request or
	// its template's manifest; Signature is the one made, once it has
	// completed (docs/signatures.md).
	Sign            *SignSpec  `json:"sign,omitempty"`
	Signature       *Signature `json:"signature,omitempty"`
	Watermarked     bool       `json:"watermarked"`
	RegeneratedFrom string     `json:"regeneratedFrom,omitempty"`
	Downloads       int        `json:"downloads"`
	// Charge is what a completed document cost; nil before it completes.
	Charge        *Charge    `json:"charge,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	CompletedAt   *time.Time `json:"completedAt,omitempty"`
	FileExpiresAt *time.Time `json:"fileExpiresAt,omitempty"`
	FileExpired   bool       `json:"fileExpired,omitempty"`
}

// Done reports whether the document has finished: completed or failed.
func (d *Document) Done() bool { return d.Status == StatusCompleted || d.Status == StatusFailed }

// Report is a render report: how a document was made, once it has been
// (completed or failed), and the report of a dry run's Quote.
type Report struct {
	Engine       string        `json:"engine,omitempty"`
	EngineReason string        `json:"engineReason,omitempty"`
	Fonts        *Fonts        `json:"fonts,omitempty"`
	FailedAssets []FailedAsset `json:"failedAssets"`
	Ms           *StageTimes   `json:"ms,omitempty"`
	// Bytes and SHA256 describe the PDF, when one was made.
	Bytes  int64  `json:"bytes,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// FailedAt is the stage a failed document failed in (a Stage…
	// constant).
	FailedAt string `json:"failedAt,omitempty"`
	// Fields says how each field of a template made from a PDF was set.
	Fields []FieldReport `json:"fields,omitempty"`
	// Conformance is the checks made on a PDF/A, e-invoice or signed
	// document.
	Conformance *Conformance `json:"conformance,omitempty"`
}

// The stages of making a document, as StageTimes and Report.FailedAt
// name them.
const (
	StageQueued    = "queued"
	StageFilling   = "filling"
	StageRendering = "rendering"
	StageCounting  = "counting"
	StageSigning   = "signing"
	StageStoring   = "storing"
)

// Conformance is what a PDF/A, e-invoice or signed document's report says
// of the standards it claims: the rules checked, by id, and those it
// failed. It counts checks and never says "valid".
type Conformance struct {
	Summary string `json:"summary"`
	Checked int    `json:"checked"`
	Failed  int    `json:"failed"`
	// PDFA is the PDF/A part and level claimed ("PDF/A-3b") and PDFARules
	// the rules checked on the finished file; both are empty when the
	// document is not PDF/A (a signed one, say).
	PDFA      string               `json:"pdfa,omitempty"`
	PDFARules []string             `json:"pdfaRules,omitempty"`
	EInvoice  *EInvoiceConformance `json:"einvoice,omitempty"`
	// PDFUA is "PDF/UA-1" when the document claims it, and PDFUARules the
	// PDF/UA rules checked on the finished file (docs/accessibility.md).
	PDFUA      string   `json:"pdfua,omitempty"`
	PDFUARules []string `json:"pdfuaRules,omitempty"`
	// Signature is a signed document's signature checks.
	Signature  *SignatureConformance `json:"signature,omitempty"`
	Failures   []RuleFailure         `json:"failures"`
	NotChecked string                `json:"notChecked"`
}

// SignatureConformance is the signature part of a conformance report: the
// PAdES level made and the checks made on the signature in the finished
// file, by id (docs/signatures.md "What is checked").
type SignatureConformance struct {
	Level  string   `json:"level"`
	Checks []string `json:"checks"`
}

// EInvoiceConformance is the e-invoice part of a conformance report.
type EInvoiceConformance struct {
	Profile      string   `json:"profile"`
	File         string   `json:"file"`
	Relationship string   `json:"afRelationship"`
	Rules        []string `json:"rules"`
	XMLChecks    []string `json:"xmlChecks"`
}

// RuleFailure is a rule a document failed, and what is wrong.
type RuleFailure struct {
	ID     string `json:"id"`
	Passed bool   `json:"passed"`
	Detail string `json:"detail,omitempty"`
}

// Fonts are the fonts a document used, and those used in place of the
// ones it asked for.
type Fonts struct {
	Used        []string           `json:"used"`
	Substituted []FontSubstitution `json:"substituted"`
}

// FontSubstitution is a font asked for and the one used instead.
type FontSubstitution struct {
	Requested string `json:"requested"`
	Used      string `json:"used"`
}

// FailedAsset is an asset a document named that could not be loaded.
type FailedAsset struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// StageTimes is the milliseconds spent in each stage of making a document.
type StageTimes struct {
	Queued    int64 `json:"queued"`
	Filling   int64 `json:"filling"`
	Rendering int64 `json:"rendering"`
	Counting  int64 `json:"counting"`
	// Signing is only on a signed document; it includes the time-stamp
	// authority's answer.
	Signing int64 `json:"signing,omitempty"`
	Storing int64 `json:"storing"`
}

// FieldReport is how one field of a template made from a PDF was set.
type FieldReport struct {
	Key         string  `json:"key"`
	PieceID     string  `json:"pieceId"`
	From        string  `json:"from"`
	Font        string  `json:"font"`
	Substituted bool    `json:"substituted,omitempty"`
	Reason      string  `json:"reason,omitempty"`
	Size        float64 `json:"size"`
	Lines       int     `json:"lines"`
}

// DocumentRequest is the body of POST /v1/documents and of a realtime
// generate. Only TemplateID (an id or a slug) is required.
type DocumentRequest struct {
	TemplateID string `json:"templateId"`
	// Data is what the template is filled with: any value that marshals
	// to a JSON object.
	Data          any            `json:"data,omitempty"`
	CorrelationID string         `json:"correlationId,omitempty"`
	Metadata      map[string]any `json:"metadata,omitempty"`
	// Engine is "phantom", "chromium" or "auto"; empty leaves it to the
	// template and the platform.
	Engine string `json:"engine,omitempty"`
	// PDFA makes the document PDF/A ("2b", "2u", "3b", "3u"), whatever
	// the template asks.
	PDFA string `json:"pdfa,omitempty"`
	// PDFUA "1" makes the document PDF/UA-1, accessible, whatever the
	// template asks (docs/accessibility.md).
	PDFUA    string `json:"pdfua,omitempty"`
	Filename string `json:"filename,omitempty"`
	// TemplateVersion renders a saved version other than the active one.
	TemplateVersion int `json:"templateVersion,omitempty"`
	// Sign signs the document with one of the organisation's
	// certificates, in place of whatever its template's manifest asks.
	Sign *SignSpec `json:"sign,omitempty"`
	// Wait false answers at once with the queued document; nil or true
	// waits up to 30 s for it to finish.
	Wait *bool `json:"wait,omitempty"`
	// DryRun renders without storing or billing and answers a Quote
	// (Documents.Quote sets it).
	DryRun bool `json:"dryRun,omitempty"`
}

// Signature appearances (SignSpec.Appearance).
const (
	// AppearanceInvisible signs without drawing anything: readers show the
	// signature in their signature panel. It is the default.
	AppearanceInvisible = "invisible"
	// AppearanceVisible also draws a block naming the signer, the time,
	// the reason and the location at the foot of the last page, on the
	// right.
	AppearanceVisible = "visible"
)

// SignSpec asks for a document to be signed with one of the
// organisation's certificates, as the last step of making it
// (docs/signatures.md "Asking for a signature"). A request's replaces its
// template manifest's "sign". Only CertificateID is required.
type SignSpec struct {
	// CertificateID is a signing certificate's id (crt_…).
	CertificateID string `json:"certificateId"`
	// Reason and Location (up to 200 characters each) are written in the
	// signature.
	Reason   string `json:"reason,omitempty"`
	Location string `json:"location,omitempty"`
	// Appearance is AppearanceInvisible (empty means that) or
	// AppearanceVisible.
	Appearance string `json:"appearance,omitempty"`
}

// PAdES baseline levels (Signature.Level).
const (
	// LevelPAdESBB is a signature whose time is the node's own.
	LevelPAdESBB = "PAdES-B-B"
	// LevelPAdESBT adds a time-stamp authority's token; a node that names
	// an authority makes these.
	LevelPAdESBT = "PAdES-B-T"
)

// Signature is the signature a completed, signed document carries: its
// PAdES level, who signed, with which certificate, and when.
type Signature struct {
	Level string `json:"level"`
	// Signer is the certificate's common name, which readers show.
	Signer            string `json:"signer"`
	CertificateID     string `json:"certificateId"`
	CertificateSHA256 string `json:"certificateSha256"`
	// SignedAt is the node's time, written in the signature.
	SignedAt time.Time `json:"signedAt"`
	// TimestampedAt is the time-stamp authority's time: LevelPAdESBT only.
	TimestampedAt *time.Time `json:"timestampedAt,omitempty"`
	Reason        string     `json:"reason,omitempty"`
	Location      string     `json:"location,omitempty"`
	Appearance    string     `json:"appearance"`
}

// SigningCertificate is one of the organisation's signing certificates.
// Its key is sealed on the node and never shown.
type SigningCertificate struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Subject is the common name, which readers show as the signer.
	Subject   string `json:"subject"`
	SubjectDN string `json:"subjectDn"`
	IssuerDN  string `json:"issuerDn"`
	// Serial is hex.
	Serial string `json:"serial"`
	// SHA256 is the certificate's fingerprint, hex.
	SHA256 string `json:"sha256"`
	// KeyAlgorithm is "RSA 3072", "ECDSA P-256", …
	KeyAlgorithm string    `json:"keyAlgorithm"`
	NotBefore    time.Time `json:"notBefore"`
	NotAfter     time.Time `json:"notAfter"`
	// ChainLength counts the certificates of the chain, the signer's
	// included.
	ChainLength int       `json:"chainLength"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Quote is what a dry run answers: the pages the document would have and
// what they would cost now.
type Quote struct {
	PageCount      int   `json:"pageCount"`
	AllowancePages int64 `json:"allowancePages"`
	WalletMicros   int64 `json:"walletMicros"`
	// Payable is whether those pages are covered now; false means a real
	// request would be accepted but would overrun the allowance or take
	// the wallet below zero.
	Payable bool    `json:"payable"`
	Report  *Report `json:"report,omitempty"`
}

// ListDocumentsParams filters and pages GET /v1/documents.
type ListDocumentsParams struct {
	Status        string
	TemplateID    string
	CorrelationID string
	Limit         int
	Cursor        string
}

// Link is a minted download link.
type Link struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// Stats is documents a day (GET /v1/documents/stats).
type Stats struct {
	Days  []DayCount `json:"days"`
	Total DayCount   `json:"total"`
}

// DayCount is the documents created on a day (UTC), by where they stand.
type DayCount struct {
	Day       string `json:"day"`
	Completed int    `json:"completed"`
	Failed    int    `json:"failed"`
	Pending   int    `json:"pending"`
}

// Template is a template record.
type Template struct {
	ID          string `json:"id"`
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Kind is "written" or "pdf" (made from an uploaded PDF).
	Kind          string     `json:"kind"`
	ActiveVersion int        `json:"activeVersion"`
	LatestVersion int        `json:"latestVersion"`
	CopiedFrom    string     `json:"copiedFrom,omitempty"`
	Source        *Source    `json:"source,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	ArchivedAt    *time.Time `json:"archivedAt,omitempty"`
}

// Source is the upload a template made from a PDF comes from.
type Source struct {
	Filename   string    `json:"filename"`
	ByteSize   int64     `json:"byteSize"`
	SHA256     string    `json:"sha256"`
	Pages      []PDFPage `json:"pages"`
	PieceCount int       `json:"pieceCount"`
}

// PDFPage is a page of an upload, in points.
type PDFPage struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// PDFTemplate is a template made from an uploaded PDF, with every text
// piece found on it.
type PDFTemplate struct {
	Template
	Pieces []Piece `json:"pieces"`
}

// Piece is a run of text on an uploaded PDF.
type Piece struct {
	ID     string  `json:"id"`
	Page   int     `json:"page"`
	Text   string  `json:"text"`
	Box    Box     `json:"box"`
	Font   string  `json:"font"`
	Size   float64 `json:"size"`
	Color  string  `json:"color"`
	Bold   bool    `json:"bold,omitempty"`
	Italic bool    `json:"italic,omitempty"`
}

// Box is where a piece's ink is, in points from the page's top left.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Pieces is the text pieces of a template made from a PDF and its pages.
type Pieces struct {
	Items []Piece   `json:"items"`
	Pages []PDFPage `json:"pages"`
}

// Field marks a piece of a template made from a PDF as filled from data.
type Field struct {
	PieceID     string `json:"pieceId"`
	Key         string `json:"key"`
	Default     string `json:"default,omitempty"`
	WhenMissing string `json:"whenMissing,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Align       string `json:"align,omitempty"`
	Text        string `json:"text,omitempty"`
}

// VersionSource is a version's source: what saving a version, creating a
// template with its first version, or a draft preview takes.
type VersionSource struct {
	HTML       string            `json:"html,omitempty"`
	Content    json.RawMessage   `json:"content,omitempty"`
	Manifest   json.RawMessage   `json:"manifest,omitempty"`
	SampleData json.RawMessage   `json:"sampleData,omitempty"`
	Assets     map[string]string `json:"assets,omitempty"`
	// Fields are the fields of a template made from a PDF.
	Fields []Field `json:"fields,omitempty"`
}

// Version is a saved version, source included.
type Version struct {
	TemplateID string            `json:"templateId"`
	Version    int               `json:"version"`
	Active     bool              `json:"active"`
	HTML       string            `json:"html,omitempty"`
	Content    json.RawMessage   `json:"content,omitempty"`
	Manifest   json.RawMessage   `json:"manifest,omitempty"`
	SampleData json.RawMessage   `json:"sampleData,omitempty"`
	Assets     map[string]string `json:"assets,omitempty"`
	Fields     []Field           `json:"fields,omitempty"`
	// Engine is the engine the version's sample data gets, and why.
	Engine    *EngineChoice `json:"engine,omitempty"`
	CreatedAt time.Time     `json:"createdAt"`
}

// EngineChoice is an engine and the reason it was chosen.
type EngineChoice struct {
	Engine string `json:"engine"`
	Reason string `json:"reason"`
}

// VersionSummary is a version in a listing, without its source.
type VersionSummary struct {
	Version    int       `json:"version"`
	Active     bool      `json:"active"`
	HTMLBytes  int       `json:"htmlBytes"`
	AssetCount int       `json:"assetCount"`
	FieldCount int       `json:"fieldCount"`
	CreatedAt  time.Time `json:"createdAt"`
}

// Starter is a template of the starter library.
type Starter struct {
	Slug        string          `json:"slug"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Category    string          `json:"category,omitempty"`
	Manifest    json.RawMessage `json:"manifest"`
	SampleData  json.RawMessage `json:"sampleData"`
}

// Webhook is a webhook endpoint. SigningSecret is set only in the answer
// that created it.
type Webhook struct {
	ID                  string     `json:"id"`
	Name                string     `json:"name"`
	URL                 string     `json:"url"`
	Events              []string   `json:"events"`
	Enabled             bool       `json:"enabled"`
	DisabledReason      string     `json:"disabledReason,omitempty"`
	DisabledAt          *time.Time `json:"disabledAt,omitempty"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	SecretPrefix        string     `json:"secretPrefix"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
	SigningSecret       string     `json:"signingSecret,omitempty"`
}

// Delivery is a delivery in an endpoint's log.
type Delivery struct {
	ID            string         `json:"id"`
	Event         string         `json:"event"`
	EventID       string         `json:"eventId"`
	Status        string         `json:"status"`
	Attempts      int            `json:"attempts"`
	LastStatus    int            `json:"lastStatus,omitempty"`
	LastError     string         `json:"lastError,omitempty"`
	NextAttemptAt *time.Time     `json:"nextAttemptAt,omitempty"`
	CreatedAt     time.Time      `json:"createdAt"`
	DeliveredAt   *time.Time     `json:"deliveredAt,omitempty"`
	LastRequest   *SentRequest   `json:"lastRequest,omitempty"`
	LastResponse  *ReceivedReply `json:"lastResponse,omitempty"`
}

// SentRequest is what the latest attempt of a delivery sent, as kept.
type SentRequest struct {
	Headers   map[string]string `json:"headers"`
	Body      string            `json:"body"`
	Truncated bool              `json:"truncated,omitempty"`
}

// ReceivedReply is what the receiver answered the latest attempt, as kept.
type ReceivedReply struct {
	Status    int               `json:"status"`
	Headers   map[string]string `json:"headers"`
	Body      string            `json:"body"`
	Truncated bool              `json:"truncated,omitempty"`
}

// PingResult is what a receiver answered a ping.
type PingResult struct {
	Status     int    `json:"status"`
	DurationMs int64  `json:"durationMs"`
	Body       string `json:"body"`
	// Error says why nothing answered, when nothing did.
	Error string `json:"error,omitempty"`
}

// Wallet is the plan, this month's allowance, the balance and the newest
// ledger rows.
type Wallet struct {
	Plan      Plan      `json:"plan"`
	Period    Period    `json:"period"`
	Allowance Allowance `json:"allowance"`
	// Currency is the ISO 4217 code every Micros amount is in.
	Currency      string      `json:"currency"`
	BalanceMicros int64       `json:"balanceMicros"`
	HeldMicros    int64       `json:"heldMicros"`
	Ledger        []LedgerRow `json:"ledger"`
}

// Plan is a plan's terms.
type Plan struct {
	Name           string `json:"name"`
	MonthlyPages   int64  `json:"monthlyPages"`
	PageRateMicros int64  `json:"pageRateMicros"`
	Wallet         bool   `json:"wallet"`
	Watermark      bool   `json:"watermark"`
}

// Period is the calendar month (UTC) an allowance counts in.
type Period struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Allowance is the month's pages.
type Allowance struct {
	Pages     int64 `json:"pages"`
	UsedPages int64 `json:"usedPages"`
	LeftPages int64 `json:"leftPages"`
	HeldPages int64 `json:"heldPages"`
}

// LedgerRow is a row of the wallet's ledger. Amounts are micro-units of
// the wallet's currency.
type LedgerRow struct {
	ID                 string    `json:"id"`
	OrgID              string    `json:"orgId"`
	Seq                uint64    `json:"seq"`
	Kind               string    `json:"kind"`
	AmountMicros       int64     `json:"amountMicros"`
	BalanceAfterMicros int64     `json:"balanceAfterMicros"`
	Reference          string    `json:"reference,omitempty"`
	At                 time.Time `json:"at"`
}

// LedgerPage is a page of the ledger; NextBefore is 0 on the page that
// holds the first row, else the Before of the next page.
type LedgerPage struct {
	Items      []LedgerRow `json:"items"`
	NextBefore uint64      `json:"nextBefore"`
}

// UnmarshalJSON takes a null nextBefore as 0.
func (p *LedgerPage) UnmarshalJSON(b []byte) error {
	var raw struct {
		Items      []LedgerRow `json:"items"`
		NextBefore *uint64     `json:"nextBefore"`
	}
	if err := decode(b, &raw); err != nil {
		return err
	}
	p.Items, p.NextBefore = raw.Items, 0
	if raw.NextBefore != nil {
		p.NextBefore = *raw.NextBefore
	}
	return nil
}

// MonthUsage is what completed documents cost in a calendar month (UTC).
type MonthUsage struct {
	Month          string `json:"month"`
	Documents      int    `json:"documents"`
	AllowancePages int64  `json:"allowancePages"`
	WalletPages    int64  `json:"walletPages"`
	AmountMicros   int64  `json:"amountMicros"`
}

// Key is an API key. Key, its secret value, is set only in the answer that
// created it.
type Key struct {
	ID         string     `json:"id"`
	OrgID      string     `json:"orgId,omitempty"`
	Name       string     `json:"name"`
	Scopes     []string   `json:"scopes"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
	RevokedAt  *time.Time `json:"revokedAt,omitempty"`
	Key        string     `json:"key,omitempty"`
}

// Index is the answer of GET /v1: the calling key's organisation and
// scopes and every operation of the API.
type Index struct {
	Success        bool        `json:"success"`
	Version        string      `json:"version"`
	Organisation   string      `json:"organisation"`
	OrganisationID string      `json:"organisationId"`
	Plan           string      `json:"plan"`
	Scopes         []ScopeInfo `json:"scopes"`
	Operations     []Operation `json:"operations"`
	Message        string      `json:"message"`
}

// ScopeInfo is a scope and what it allows.
type ScopeInfo struct {
	Scope string `json:"scope"`
	Label string `json:"label"`
}

// Operation is an operation of the API and the scope it needs ("" for
// any key).
type Operation struct {
	Method  string `json:"method"`
	Path    string `json:"path"`
	Summary string `json:"summary"`
	Scope   string `json:"scope,omitempty"`
}

// Charge is what a completed document cost: pages from the monthly
// allowance, pages paid from the wallet, and their price in micro-units
// of the wallet's currency.
type Charge struct {
	AllowancePages int64 `json:"allowancePages"`
	WalletPages    int64 `json:"walletPages"`
	Micros         int64 `json:"micros"`
}
