package testnode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

// Typed views of what the API answers, as transport's views write them and
// docs/api.md describes them. A test reads an answer with DataAs, which
// refuses a field these types do not know: a field renamed on either side
// fails the test loudly instead of comparing a missing value with nil.
// Keep every field of an answer here, even those no test reads yet.

// List is a listing: {"items": […], "nextCursor": "…" or null}. Listings
// without pages (endpoints, versions, the library) leave NextCursor nil.
type List[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

// Problem is the error of the error envelope.
type Problem struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	Field      string `json:"field"`
	Violations []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"violations"`
}

// Document is a document record (GET /v1/documents/:id).
type Document struct {
	ID                   string          `json:"id"`
	Status               string          `json:"status"`
	TemplateID           string          `json:"templateId"`
	TemplateSlug         string          `json:"templateSlug"`
	TemplateVersion      int             `json:"templateVersion"`
	CorrelationID        string          `json:"correlationId"`
	PageCount            int             `json:"pageCount"`
	ByteSize             int64           `json:"byteSize"`
	Filename             string          `json:"filename"`
	DownloadURL          string          `json:"downloadUrl"`
	DownloadURLExpiresAt *time.Time      `json:"downloadUrlExpiresAt"`
	DurationMs           int64           `json:"durationMs"`
	Report               json.RawMessage `json:"report"`
	ErrorCode            string          `json:"errorCode"`
	Message              string          `json:"message"`
	Metadata             json.RawMessage `json:"metadata"`
	Engine               string          `json:"engine"`
	EngineReason         string          `json:"engineReason"`
	PDFA                 string          `json:"pdfa"`
	PDFUA                string          `json:"pdfua"`
	Sign                 *SignRequest    `json:"sign"`
	Signature            *Signature      `json:"signature"`
	Watermarked          bool            `json:"watermarked"`
	RegeneratedFrom      string          `json:"regeneratedFrom"`
	Downloads            int             `json:"downloads"`
	Charge               *Charge         `json:"charge"`
	CreatedAt            time.Time       `json:"createdAt"`
	CompletedAt          *time.Time      `json:"completedAt"`
	FileExpiresAt        *time.Time      `json:"fileExpiresAt"`
	FileExpired          bool            `json:"fileExpired"`
}

// SignRequest is the signature a Document asks for.
type SignRequest struct {
	CertificateID string `json:"certificateId"`
	Reason        string `json:"reason"`
	Location      string `json:"location"`
	Appearance    string `json:"appearance"`
}

// Signature is a signed Document's signature.
type Signature struct {
	Level             string     `json:"level"`
	Signer            string     `json:"signer"`
	CertificateID     string     `json:"certificateId"`
	CertificateSHA256 string     `json:"certificateSha256"`
	SignedAt          time.Time  `json:"signedAt"`
	TimestampedAt     *time.Time `json:"timestampedAt"`
	Reason            string     `json:"reason"`
	Location          string     `json:"location"`
	Appearance        string     `json:"appearance"`
}

// Charge is what a completed Document cost.
type Charge struct {
	AllowancePages int64 `json:"allowancePages"`
	WalletPages    int64 `json:"walletPages"`
	Micros         int64 `json:"micros"`
}

// Report is a Document's render report (docs/api.md "Render report").
type Report struct {
	Engine       string `json:"engine"`
	EngineReason string `json:"engineReason"`
	Fonts        struct {
		Used        []string `json:"used"`
		Substituted []struct {
			Requested string `json:"requested"`
			Used      string `json:"used"`
		} `json:"substituted"`
	} `json:"fonts"`
	FailedAssets []struct {
		URL    string `json:"url"`
		Reason string `json:"reason"`
	} `json:"failedAssets"`
	Ms       map[string]int64 `json:"ms"`
	Bytes    int64            `json:"bytes"`
	SHA256   string           `json:"sha256"`
	FailedAt string           `json:"failedAt"`
	// Fields is how the fields of a template made from a PDF were set.
	Fields []FieldReport `json:"fields"`
}

// Quote is the answer of a dry run (POST /v1/documents with dryRun).
type Quote struct {
	PageCount      int    `json:"pageCount"`
	AllowancePages int64  `json:"allowancePages"`
	WalletMicros   int64  `json:"walletMicros"`
	Payable        bool   `json:"payable"`
	Report         Report `json:"report"`
}

// FieldReport is how one field was set.
type FieldReport struct {
	Key         string  `json:"key"`
	PieceID     string  `json:"pieceId"`
	From        string  `json:"from"`
	Font        string  `json:"font"`
	Substituted bool    `json:"substituted"`
	Reason      string  `json:"reason"`
	Size        float64 `json:"size"`
	Lines       int     `json:"lines"`
}

// Link is a minted download link (GET /v1/documents/:id/download).
type Link struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// DocumentEvent is the data of a document event, in a webhook payload or on
// the realtime feed; a completed one carries a fresh link.
type DocumentEvent struct {
	ID              string          `json:"id"`
	Status          string          `json:"status"`
	TemplateSlug    string          `json:"templateSlug"`
	TemplateVersion int             `json:"templateVersion"`
	CorrelationID   string          `json:"correlationId"`
	PageCount       int             `json:"pageCount"`
	ByteSize        int64           `json:"byteSize"`
	Filename        string          `json:"filename"`
	Metadata        json.RawMessage `json:"metadata"`
	ErrorCode       string          `json:"errorCode"`
	Message         string          `json:"message"`
	URL             string          `json:"url"`
	URLExpiresAt    *time.Time      `json:"urlExpiresAt"`
	Engine          string          `json:"engine"`
	EngineReason    string          `json:"engineReason"`
	Report          json.RawMessage `json:"report"`
	Signature       *Signature      `json:"signature"`
}

// Template is a template record.
type Template struct {
	ID            string     `json:"id"`
	Slug          string     `json:"slug"`
	Name          string     `json:"name"`
	Description   string     `json:"description"`
	Kind          string     `json:"kind"`
	ActiveVersion int        `json:"activeVersion"`
	LatestVersion int        `json:"latestVersion"`
	CopiedFrom    string     `json:"copiedFrom"`
	Source        *Source    `json:"source"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	ArchivedAt    *time.Time `json:"archivedAt"`
}

// PDFTemplate is the answer of POST /v1/templates/pdf: the template and
// every text piece found on the upload.
type PDFTemplate struct {
	Template
	Pieces []Piece `json:"pieces"`
}

// Source is the upload of a template made from a PDF.
type Source struct {
	Filename   string `json:"filename"`
	ByteSize   int64  `json:"byteSize"`
	SHA256     string `json:"sha256"`
	Pages      []Page `json:"pages"`
	PieceCount int    `json:"pieceCount"`
}

// Page is a page of an upload, in points.
type Page struct {
	Number int     `json:"number"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
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
	Bold   bool    `json:"bold"`
	Italic bool    `json:"italic"`
}

// Box is where a piece's ink is, in points from the page's top left.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Pieces is the answer of GET /v1/templates/:id/pieces.
type Pieces struct {
	Items []Piece `json:"items"`
	Pages []Page  `json:"pages"`
}

// Version is a whole version, source included.
type Version struct {
	TemplateID string            `json:"templateId"`
	Version    int               `json:"version"`
	Active     bool              `json:"active"`
	HTML       string            `json:"html"`
	Content    json.RawMessage   `json:"content"`
	Manifest   json.RawMessage   `json:"manifest"`
	SampleData json.RawMessage   `json:"sampleData"`
	Assets     map[string]string `json:"assets"`
	Fields     []Field           `json:"fields"`
	Engine     *EngineChoice     `json:"engine"`
	CreatedAt  time.Time         `json:"createdAt"`
}

// EngineChoice is the engine a version's sample data gets, and why.
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

// Field marks a piece of a template made from a PDF.
type Field struct {
	PieceID     string `json:"pieceId"`
	Key         string `json:"key"`
	Default     string `json:"default"`
	WhenMissing string `json:"whenMissing"`
	Required    bool   `json:"required"`
	Align       string `json:"align"`
	Text        string `json:"text"`
}

// Starter is a starter in the library.
type Starter struct {
	Slug        string          `json:"slug"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Category    string          `json:"category"`
	Manifest    json.RawMessage `json:"manifest"`
	SampleData  json.RawMessage `json:"sampleData"`
}

// Endpoint is a webhook endpoint; SigningSecret only in the answer that
// created it.
type Endpoint struct {
	ID                  string     `json:"id"`
	Name                string     `json:"name"`
	URL                 string     `json:"url"`
	Events              []string   `json:"events"`
	Enabled             bool       `json:"enabled"`
	DisabledReason      string     `json:"disabledReason"`
	DisabledAt          *time.Time `json:"disabledAt"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	SecretPrefix        string     `json:"secretPrefix"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
	SigningSecret       string     `json:"signingSecret"`
}

// Delivery is a delivery in an endpoint's log.
type Delivery struct {
	ID            string     `json:"id"`
	Event         string     `json:"event"`
	EventID       string     `json:"eventId"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	LastStatus    int        `json:"lastStatus"`
	LastError     string     `json:"lastError"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
	LastRequest   *struct {
		Headers   map[string]string `json:"headers"`
		Body      string            `json:"body"`
		Truncated bool              `json:"truncated"`
	} `json:"lastRequest"`
	LastResponse *struct {
		Status    int               `json:"status"`
		Headers   map[string]string `json:"headers"`
		Body      string            `json:"body"`
		Truncated bool              `json:"truncated"`
	} `json:"lastResponse"`
}

// Ping is the answer of POST /v1/webhooks/:id/ping: what the receiver said.
// DurationMs is a pointer because 0 ms is an answer on loopback.
type Ping struct {
	Status     int    `json:"status"`
	DurationMs *int64 `json:"durationMs"`
	Body       string `json:"body"`
	Error      string `json:"error"`
}

// Wallet is the answer of GET /v1/wallet.
type Wallet struct {
	Plan          Plan          `json:"plan"`
	Period        Period        `json:"period"`
	Allowance     Allowance     `json:"allowance"`
	Currency      string        `json:"currency"`
	BalanceMicros int64         `json:"balanceMicros"`
	HeldMicros    int64         `json:"heldMicros"`
	Ledger        []LedgerEntry `json:"ledger"`
}

// Plan is a plan's terms.
type Plan struct {
	Name           string `json:"name"`
	MonthlyPages   int64  `json:"monthlyPages"`
	PageRateMicros int64  `json:"pageRateMicros"`
	Wallet         bool   `json:"wallet"`
	Watermark      bool   `json:"watermark"`
}

// Period is the calendar month an allowance counts in.
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

// LedgerEntry is a row of a wallet's ledger.
type LedgerEntry struct {
	ID                 string    `json:"id"`
	OrgID              string    `json:"orgId"`
	Seq                uint64    `json:"seq"`
	Kind               string    `json:"kind"`
	AmountMicros       int64     `json:"amountMicros"`
	BalanceAfterMicros int64     `json:"balanceAfterMicros"`
	Reference          string    `json:"reference"`
	At                 time.Time `json:"at"`
}

// Ledger is the operator's whole ledger of an organisation
// (GET /admin/v1/orgs/:id/ledger), oldest first.
type Ledger struct {
	Items         []LedgerEntry `json:"items"`
	NextAfter     *uint64       `json:"nextAfter"`
	BalanceMicros int64         `json:"balanceMicros"`
	HeldMicros    int64         `json:"heldMicros"`
	HeldPages     int64         `json:"heldPages"`
	UsagePeriod   string        `json:"usagePeriod"`
	PagesUsed     int64         `json:"pagesUsed"`
}

// Org is an organisation as the operator API shows it.
type Org struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	Plan          string    `json:"plan"`
	BalanceMicros int64     `json:"balanceMicros"`
	CreatedAt     time.Time `json:"createdAt"`
	RateLimit     float64   `json:"rateLimit"`
	RateBurst     int       `json:"rateBurst"`
}

// Key is an API key; Key, its value, only in the answer that created it;
// LastUsedAt only where the organisation reads its keys (/v1/keys).
type Key struct {
	ID         string     `json:"id"`
	OrgID      string     `json:"orgId"`
	Name       string     `json:"name"`
	Scopes     []string   `json:"scopes"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"createdAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	Key        string     `json:"key"`
}

// Credit is the answer of POST /admin/v1/orgs/:id/wallet/credit: the ledger
// row, the balance after it, and whether the reference had been credited
// already (then nothing new was written).
type Credit struct {
	Entry         LedgerEntry `json:"entry"`
	BalanceMicros int64       `json:"balanceMicros"`
	Replayed      bool        `json:"replayed"`
}

// Index is the answer of GET /v1. It is not an envelope's data: read it
// with Decode from the whole body.
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

// ScopeInfo is a scope the key has, with its label.
type ScopeInfo struct {
	Scope string `json:"scope"`
	Label string `json:"label"`
}

// Operation is an entry of the index's operations; Scope is empty for
// operations any key may call.
type Operation struct {
	Method  string `json:"method"`
	Path    string `json:"path"`
	Summary string `json:"summary"`
	Scope   string `json:"scope"`
}

// Cluster is the answer of GET /admin/v1/cluster (and of removing a node):
// this node, its raft state, the raft servers, the live members and the
// members actors are placed on.
type Cluster struct {
	Node      ClusterNode     `json:"node"`
	Raft      RaftState       `json:"raft"`
	Servers   []RaftServer    `json:"servers"`
	Members   []ClusterMember `json:"members"`
	Placement []PlacedMember  `json:"placement"`
}

// ClusterNode is the node that answered.
type ClusterNode struct {
	ID    string `json:"id"`
	HTTP  string `json:"http"`
	Raft  string `json:"raft"`
	Ready bool   `json:"ready"`
}

// RaftState is the answering node's raft role and indexes; raft reports
// the term and the log's indexes as strings.
type RaftState struct {
	State        string `json:"state"`
	Term         string `json:"term"`
	LastLogIndex string `json:"lastLogIndex"`
	CommitIndex  string `json:"commitIndex"`
	AppliedIndex uint64 `json:"appliedIndex"`
}

// RaftServer is a server of the raft configuration; Suffrage is "Voter",
// "Nonvoter" or "Staging".
type RaftServer struct {
	ID       string `json:"id"`
	Address  string `json:"address"`
	Suffrage string `json:"suffrage"`
}

// ClusterMember is a live member as gossip shows it.
type ClusterMember struct {
	ID    string `json:"id"`
	HTTP  string `json:"http"`
	Peer  string `json:"peer"`
	Load  int64  `json:"load"`
	Ready bool   `json:"ready"`
}

// PlacedMember is a member actors are placed on. The node writes
// cluster.Member as it is, without JSON names: hence the capitals.
type PlacedMember struct {
	ID   string `json:"ID"`
	Addr string `json:"Addr"`
}

// DataAs decodes the data of a success envelope into T, refusing fields T
// does not have, and fails the test when the answer has no data or does not
// fit T.
func DataAs[T any](t testing.TB, r Response) T {
	t.Helper()
	v, err := ParseData[T](r)
	if err != nil {
		t.Fatalf("%v: %s", err, r)
	}
	return v
}

// ParseData is DataAs for where a test cannot stop: in another goroutine,
// or where a wrong answer is worth waiting out.
func ParseData[T any](r Response) (T, error) {
	var v T
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil {
		return v, fmt.Errorf("the answer is not a JSON envelope: %w", err)
	}
	if len(env.Data) == 0 || string(env.Data) == "null" {
		return v, errors.New("the answer has no data")
	}
	if err := decodeStrict(env.Data, &v); err != nil {
		return v, fmt.Errorf("data does not fit %T: %w", v, err)
	}
	return v, nil
}

// Decode decodes JSON that is not an envelope's data (a webhook payload, a
// realtime frame's data, a document's report) the way DataAs does.
func Decode[T any](t testing.TB, raw []byte) T {
	t.Helper()
	var v T
	if err := decodeStrict(raw, &v); err != nil {
		t.Fatalf("%s does not fit %T: %v", raw, v, err)
	}
	return v
}

func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

// Problem returns the error of an error envelope; its zero value for any
// other answer.
func (r Response) Problem() Problem {
	var env struct {
		Error Problem `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &env)
	return env.Error
}

// Message returns the envelope's message, of a success or of a refusal.
func (r Response) Message() string {
	var env struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(r.Body, &env)
	return env.Message
}
