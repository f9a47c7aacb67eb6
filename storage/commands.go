package storage

import "time"

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
	KindRecordDownload   Kind = "document.download"
	KindExpireDocument   Kind = "document.expire"

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
