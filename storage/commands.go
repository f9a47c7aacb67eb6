package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// Kind names a command. Each kind has one function that applies it, listed in
// appliers (fsm.go); its body type and that function live in the file of the
// records it changes.
type Kind string

// Command kinds.
const (
	// Operator settings (operator.go): no org, no version.
	KindSetOperatorToken Kind = "operator.token"
	KindSetLinkKey       Kind = "links.key"
	KindSetPlanTerms     Kind = "plan.terms"

	// Organisations, keys and the wallet (orgs.go).
	KindCreateOrg    Kind = "org.create"
	KindSetPlan      Kind = "org.plan"
	KindSetRateLimit Kind = "org.rate-limit"
	KindCreateKey    Kind = "key.create"
	KindRevokeKey    Kind = "key.revoke"
	KindCreditWallet Kind = "wallet.credit"

	// Templates and their versions (templates.go).
	KindCreateTemplate  Kind = "template.create"
	KindSaveVersion     Kind = "template.version"
	KindActivateVersion Kind = "template.activate"
	KindUpdateTemplate  Kind = "template.update"

	// Documents (documents.go).
	KindCreateDocument   Kind = "document.create"
	KindStartRender      Kind = "document.rendering"
	KindCompleteDocument Kind = "document.complete"
	KindFailDocument     Kind = "document.fail"
	// KindRecordDocument records a document rendered within its request's
	// wait in one command: its creation, start and outcome (docs/design.md
	// "One write per document").
	KindRecordDocument Kind = "document.record"
	KindRecordDownload Kind = "document.download"
	KindExpireDocument Kind = "document.expire"

	// Webhook endpoints (webhooks.go). Creating one is org-scoped; the others
	// carry the endpoint's version.
	KindCreateEndpoint Kind = "webhook.create"
	KindUpdateEndpoint Kind = "webhook.update"
	KindRecordAttempt  Kind = "webhook.attempt"

	// Signing certificates (signing.go).
	KindCreateSigningCertificate Kind = "signing.create"
	KindDeleteSigningCertificate Kind = "signing.delete"

	// People, sessions and one-time links (accounts.go): no org version.
	KindCreateLink      Kind = "account.link"
	KindAcceptLink      Kind = "account.accept"
	KindSignUp          Kind = "account.signup"
	KindStartSession    Kind = "session.start"
	KindPasswordAttempt Kind = "account.password-attempt"
	KindTouchSession    Kind = "session.touch"
	KindEndSessions     Kind = "session.end"
	KindSetPassword     Kind = "account.password"
	KindSetRole         Kind = "member.role"
	KindRemoveMember    Kind = "member.remove"
	KindKeyUsed         Kind = "key.used"
	KindRevokeLink      Kind = "account.link-revoke"
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
	SetRateLimit     *SetRateLimit     `json:"setRateLimit,omitempty"`
	CreateKey        *CreateKey        `json:"createKey,omitempty"`
	RevokeKey        *RevokeKey        `json:"revokeKey,omitempty"`
	CreditWallet     *CreditWallet     `json:"creditWallet,omitempty"`
	CreateTemplate   *CreateTemplate   `json:"createTemplate,omitempty"`
	SaveVersion      *SaveVersion      `json:"saveVersion,omitempty"`
	ActivateVersion  *ActivateVersion  `json:"activateVersion,omitempty"`
	UpdateTemplate   *UpdateTemplate   `json:"updateTemplate,omitempty"`
	CreateDocument   *CreateDocument   `json:"createDocument,omitempty"`
	DocumentChange   *DocumentChange   `json:"documentChange,omitempty"`
	RecordDocument   *RecordDocument   `json:"recordDocument,omitempty"`
	CreateEndpoint   *Endpoint         `json:"createEndpoint,omitempty"`
	UpdateEndpoint   *UpdateEndpoint   `json:"updateEndpoint,omitempty"`
	RecordAttempt    *RecordAttempt    `json:"recordAttempt,omitempty"`

	CreateSigningCertificate *SigningCertificate       `json:"createSigningCertificate,omitempty"`
	DeleteSigningCertificate *DeleteSigningCertificate `json:"deleteSigningCertificate,omitempty"`

	CreateLink      *CreateLink      `json:"createLink,omitempty"`
	AcceptLink      *AcceptLink      `json:"acceptLink,omitempty"`
	SignUp          *SignUp          `json:"signUp,omitempty"`
	StartSession    *StartSession    `json:"startSession,omitempty"`
	PasswordAttempt *PasswordAttempt `json:"passwordAttempt,omitempty"`
	TouchSession    *TouchSession    `json:"touchSession,omitempty"`
	EndSessions     *EndSessions     `json:"endSessions,omitempty"`
	SetPassword     *SetPassword     `json:"setPassword,omitempty"`
	SetRole         *SetRole         `json:"setRole,omitempty"`
	RemoveMember    *RemoveMember    `json:"removeMember,omitempty"`
	KeyUsed         *KeyUsed         `json:"keyUsed,omitempty"`
	RevokeLink      *RevokeLink      `json:"revokeLink,omitempty"`

	// Blob is a file the command carries in the log itself (a
	// KindRecordDocument's PDF): applying the command writes it to every
	// node's blob folder. It is encoded after the command, not in its JSON.
	Blob []byte `json:"-"`
}

// EncodeCommand writes a command as raft log data: a versioned record, or,
// for a command that carries a Blob, version 2: the JSON's length as a
// uvarint, the JSON, and the blob's bytes as they are (no base64).
func EncodeCommand(c *Command) ([]byte, error) {
	if len(c.Blob) == 0 {
		return encode(c)
	}
	body, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("%w: encode command: %v", ErrCodec, err)
	}
	out := make([]byte, 0, 1+binary.MaxVarintLen64+len(body)+len(c.Blob))
	out = append(out, blobCommandVersion)
	out = binary.AppendUvarint(out, uint64(len(body)))
	out = append(out, body...)
	return append(out, c.Blob...), nil
}

// blobCommandVersion starts a command written with its Blob after it.
const blobCommandVersion byte = 2

// DecodeCommand reads raft log data written by EncodeCommand.
func DecodeCommand(b []byte) (*Command, error) {
	var c Command
	if len(b) > 0 && b[0] == blobCommandVersion {
		body, blob, ok := chunk(b[1:])
		if !ok || len(blob) == 0 {
			return nil, fmt.Errorf("%w: a command with a blob is cut short", ErrCodec)
		}
		if err := json.Unmarshal(body, &c); err != nil {
			return nil, fmt.Errorf("%w: decode command: %v", ErrCodec, err)
		}
		c.Blob = blob
		return &c, nil
	}
	if err := decode(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// CarriesBlob reports whether raft log data is a command with a Blob,
// without decoding it.
func CarriesBlob(b []byte) bool { return len(b) > 0 && b[0] == blobCommandVersion }
