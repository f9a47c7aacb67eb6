package storage

import (
	"encoding/json"
	"fmt"
	"time"
)

// Kind names a command.
type Kind string

// Command kinds.
const (
	KindSetOperatorToken Kind = "operator.token"
	KindSetLinkKey       Kind = "links.key"
	KindSetPlanTerms     Kind = "plan.terms"
	KindCreateOrg        Kind = "org.create"
	KindSetPlan          Kind = "org.plan"
	KindCreateKey        Kind = "key.create"
	KindRevokeKey        Kind = "key.revoke"
	KindCreditWallet     Kind = "wallet.credit"
	KindCreateTemplate   Kind = "template.create"
	KindSaveVersion      Kind = "template.version"
	KindActivateVersion  Kind = "template.activate"
	KindUpdateTemplate   Kind = "template.update"
)

// Command is one state change in the raft log. Exactly one body field is set,
// the one matching Kind. OrgID and Expect are set for org-scoped commands.
type Command struct {
	Kind Kind `json:"kind"`
	// OrgID is the organisation an org-scoped command belongs to.
	OrgID string `json:"orgId,omitempty"`
	// EndpointID is the webhook endpoint an endpoint-scoped command belongs
	// to; for those, Expect is the endpoint's version, not the org's.
	EndpointID string `json:"endpointId,omitempty"`
	// Expect is the org version the proposer decided on; zero for CreateOrg.
	Expect uint64 `json:"expect"`
	// At is when the proposer made the command; the FSM never reads a clock.
	At time.Time `json:"at"`

	SetOperatorToken *SetOperatorToken `json:"setOperatorToken,omitempty"`
	SetLinkKey       *SetLinkKey       `json:"setLinkKey,omitempty"`
	SetPlanTerms     *Plan             `json:"setPlanTerms,omitempty"`
	CreateOrg        *CreateOrg        `json:"createOrg,omitempty"`
	SetPlan          *SetPlan          `json:"setPlan,omitempty"`
	CreateKey        *CreateKey        `json:"createKey,omitempty"`
	RevokeKey        *RevokeKey        `json:"revokeKey,omitempty"`
	CreditWallet     *CreditWallet     `json:"creditWallet,omitempty"`
	CreateTemplate   *CreateTemplate   `json:"createTemplate,omitempty"`
	SaveVersion      *SaveVersion      `json:"saveVersion,omitempty"`
	ActivateVersion  *ActivateVersion  `json:"activateVersion,omitempty"`
	UpdateTemplate   *UpdateTemplate   `json:"updateTemplate,omitempty"`
	CreateDocument   *CreateDocument   `json:"createDocument,omitempty"`
	DocumentChange   *DocumentChange   `json:"documentChange,omitempty"`
	CreateEndpoint   *Endpoint         `json:"createEndpoint,omitempty"`
	UpdateEndpoint   *UpdateEndpoint   `json:"updateEndpoint,omitempty"`
	RecordAttempt    *RecordAttempt    `json:"recordAttempt,omitempty"`
}

// CreateTemplate creates a template, with its first version when Version is
// set; Activate makes that version active and emits template.activated.
type CreateTemplate struct {
	Template Template         `json:"template"`
	Version  *TemplateVersion `json:"version,omitempty"`
	Activate bool             `json:"activate,omitempty"`
	EventID  string           `json:"eventId,omitempty"`
	// Pieces are the text pieces of a TemplatePDF template's upload, as
	// the analysis wrote them (JSON), stored apart from the record.
	Pieces json.RawMessage `json:"pieces,omitempty"`
}

// SaveVersion stores the next version of a template. Its number must be the
// template's latest plus one.
type SaveVersion struct {
	Version  TemplateVersion `json:"version"`
	Activate bool            `json:"activate,omitempty"`
	EventID  string          `json:"eventId,omitempty"`
}

// ActivateVersion makes an existing version the one that generates.
type ActivateVersion struct {
	TemplateID string `json:"templateId"`
	Number     int    `json:"number"`
	EventID    string `json:"eventId"`
}

// UpdateTemplate renames, re-slugs, describes, archives or restores a template.
// Nil fields are left as they are.
type UpdateTemplate struct {
	TemplateID  string  `json:"templateId"`
	Name        *string `json:"name,omitempty"`
	Slug        *string `json:"slug,omitempty"`
	Description *string `json:"description,omitempty"`
	Archived    *bool   `json:"archived,omitempty"`
}

// activates reports whether a command makes a version active, which emits
// template.activated.
func (c *Command) activates() bool {
	switch c.Kind {
	case KindCreateTemplate:
		return c.CreateTemplate.Activate && c.CreateTemplate.Version != nil
	case KindSaveVersion:
		return c.SaveVersion.Activate
	case KindActivateVersion:
		return true
	}
	return false
}

// SetOperatorToken stores the hash of the operator token. It is refused when a
// hash is already stored, so concurrent first starts cannot both win.
type SetOperatorToken struct {
	Hash string `json:"hash"`
}

// SetLinkKey stores the key that signs download links, the same on every
// node so a link works on any of them. Refused once a key is stored.
type SetLinkKey struct {
	Key []byte `json:"key"`
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

// WalletCreditedData is the data of a wallet.credited event.
type WalletCreditedData struct {
	LedgerEntryID string `json:"ledgerEntryId"`
	AmountMicros  int64  `json:"amountMicros"`
	BalanceMicros int64  `json:"balanceMicros"`
	Reference     string `json:"reference"`
}

// EncodeCommand writes a command as raft log data.
func EncodeCommand(c *Command) ([]byte, error) { return encode(c) }

// DecodeCommand reads raft log data written by EncodeCommand.
func DecodeCommand(b []byte) (*Command, error) {
	var c Command
	if err := decode(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

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
	case KindStartRender, KindRecordDownload, KindExpireDocument, KindCreateEndpoint:
	case KindCreditWallet:
		o.BalanceMicros += c.CreditWallet.AmountMicros
		o.LedgerSeq++
	default:
		return charge, fmt.Errorf("%w: %s is not an org command", ErrCodec, c.Kind)
	}
	o.Version++
	return charge, nil
}

// walletCreditedData is the data of the wallet.credited event of a credit
// applied to o.
func walletCreditedData(o *Org, c *Command) WalletCreditedData {
	return WalletCreditedData{
		LedgerEntryID: c.CreditWallet.EntryID,
		AmountMicros:  c.CreditWallet.AmountMicros,
		BalanceMicros: o.BalanceMicros,
		Reference:     c.CreditWallet.Reference,
	}
}

// templateID is the template a template command changes.
func (c *Command) templateID() string {
	switch c.Kind {
	case KindCreateTemplate:
		return c.CreateTemplate.Template.ID
	case KindSaveVersion:
		return c.SaveVersion.Version.TemplateID
	case KindActivateVersion:
		return c.ActivateVersion.TemplateID
	case KindUpdateTemplate:
		return c.UpdateTemplate.TemplateID
	}
	return ""
}
