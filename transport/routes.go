package transport

import (
	"net/http"
	"strings"

	"github.com/platen/platen/auth"
)

// table is every route the node serves. The router, the GET /v1 index and the
// OpenAPI check all read it; add a route here and to openapi.yaml together.
func (s *Server) table() []*route {
	rs := []*route{
		{Method: http.MethodGet, Path: "/healthz", Summary: "Liveness: the process answers", Auth: authNone, Handler: s.healthz},
		{Method: http.MethodGet, Path: "/readyz", Summary: "Readiness: the node has a leader and has applied every committed change", Auth: authNone, Handler: s.readyz},
		{Method: http.MethodGet, Path: "/metrics", Summary: "Prometheus metrics", Auth: authNone, Handler: s.metricsHandler()},

		{Method: http.MethodGet, Path: "/v1", Summary: "The API version, the calling key's organisation and scopes, and the operations", Auth: authKey, Handler: s.index},
		{Method: http.MethodGet, Path: "/v1/wallet", Summary: "The plan, this month's allowance, the wallet balance and recent ledger rows", Auth: authKey, Scope: auth.WalletRead, Handler: s.wallet},
		{Method: http.MethodGet, Path: "/v1/wallet/ledger", Summary: "The wallet's ledger, newest first, a page at a time", Auth: authKey, Scope: auth.WalletRead, Handler: s.walletLedger},
		{Method: http.MethodGet, Path: "/v1/wallet/usage", Summary: "Pages from the allowance, pages paid from the wallet and the amount, month by month", Auth: authKey, Scope: auth.WalletRead, Handler: s.walletUsage},
		{Method: http.MethodPost, Path: "/v1/documents", Summary: "Generate a document", Auth: authKey, Scope: auth.DocumentsGenerate, Handler: s.createDocument},
		{Method: http.MethodGet, Path: "/v1/documents", Summary: "List documents, newest first, by status, template or correlationId", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.listDocuments},
		{Method: http.MethodGet, Path: "/v1/documents/stats", Summary: "Documents a day over the last days, by status", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.documentStats},
		{Method: http.MethodGet, Path: "/v1/documents/:id", Summary: "Read a document, with a fresh download link", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.getDocument},
		{Method: http.MethodGet, Path: "/v1/documents/:id/download", Summary: "Mint a download link and record the download", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.downloadLink},
		{Method: http.MethodGet, Path: "/v1/documents/:id/thumbnail", Summary: "The first page of a completed document, as a PNG", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.documentThumbnail},
		{Method: http.MethodGet, Path: "/v1/documents/:id/data", Summary: "The data a document was rendered from", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.documentData},
		{Method: http.MethodGet, Path: "/v1/documents/:id/einvoice", Summary: "The XML an e-invoice document embeds", Auth: authKey, Scope: auth.DocumentsRead, Handler: s.eInvoiceXML},
		{Method: http.MethodPost, Path: "/v1/documents/:id/regenerate", Summary: "Generate a new document from the same data and template version", Auth: authKey, Scope: auth.DocumentsGenerate, Handler: s.regenerate},
		{Method: http.MethodGet, Path: "/files/:id/:filename", Summary: "Download a PDF through a signed link; no key needed", Auth: authNone, Handler: s.serveFile},
		{Method: http.MethodGet, Path: "/v1/keys", Summary: "List the organisation's API keys, newest first, revoked ones included", Auth: authKey, Scope: auth.KeysRead, Handler: s.listKeys},
		{Method: http.MethodPost, Path: "/v1/keys", Summary: "Create an API key with scopes the caller holds; its value is shown once", Auth: authKey, Scope: auth.KeysWrite, Handler: s.createKey},
		{Method: http.MethodDelete, Path: "/v1/keys/:keyId", Summary: "Revoke an API key of the organisation", Auth: authKey, Scope: auth.KeysWrite, Handler: s.revokeKey},
		{Method: http.MethodPost, Path: "/v1/webhooks", Summary: "Register a webhook endpoint; its signing secret is shown once", Auth: authKey, Scope: auth.WebhooksWrite, Handler: s.createWebhook},
		{Method: http.MethodGet, Path: "/v1/webhooks", Summary: "List webhook endpoints", Auth: authKey, Scope: auth.WebhooksRead, Handler: s.listWebhooks},
		{Method: http.MethodGet, Path: "/v1/webhooks/:id", Summary: "Read a webhook endpoint", Auth: authKey, Scope: auth.WebhooksRead, Handler: s.getWebhook},
		{Method: http.MethodPatch, Path: "/v1/webhooks/:id", Summary: "Change a webhook endpoint; enabled true re-enables it", Auth: authKey, Scope: auth.WebhooksWrite, Handler: s.patchWebhook},
		{Method: http.MethodDelete, Path: "/v1/webhooks/:id", Summary: "Delete a webhook endpoint", Auth: authKey, Scope: auth.WebhooksWrite, Handler: s.deleteWebhook},
		{Method: http.MethodGet, Path: "/v1/webhooks/:id/deliveries", Summary: "An endpoint's deliveries, newest first", Auth: authKey, Scope: auth.WebhooksRead, Handler: s.listDeliveries},
		{Method: http.MethodPost, Path: "/v1/webhooks/:id/ping", Summary: "Send a signed ping now and answer with the receiver's reply", Auth: authKey, Scope: auth.WebhooksWrite, Handler: s.pingWebhook},
		{Method: http.MethodPost, Path: "/v1/signing/certificates", Summary: "Store a signing certificate from a PKCS#12 upload (multipart: file, password, name); its key is never shown", Auth: authKey, Scope: auth.SigningWrite, Handler: s.createCertificate},
		{Method: http.MethodGet, Path: "/v1/signing/certificates", Summary: "List the organisation's signing certificates", Auth: authKey, Scope: auth.SigningRead, Handler: s.listCertificates},
		{Method: http.MethodGet, Path: "/v1/signing/certificates/:id", Summary: "Read a signing certificate", Auth: authKey, Scope: auth.SigningRead, Handler: s.getCertificate},
		{Method: http.MethodDelete, Path: "/v1/signing/certificates/:id", Summary: "Delete a signing certificate and erase its key", Auth: authKey, Scope: auth.SigningWrite, Handler: s.deleteCertificate},
		{Method: http.MethodGet, Path: "/v1/realtime", Summary: "The realtime namespace: a WebSocket that generates without polling and streams the change feed", Auth: authNone, Handler: s.realtime},
		{Method: http.MethodGet, Path: "/v1/templates/library", Summary: "The starter library", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.library},
		{Method: http.MethodGet, Path: "/v1/templates/library/:starterSlug/thumbnail.png", Summary: "A starter's first page with its sample data, as a PNG 320 pixels wide", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.starterThumbnail},
		{Method: http.MethodPost, Path: "/v1/templates/library/:starterSlug/copy", Summary: "Copy a starter into the organisation; it generates at once", Auth: authKey, Scope: auth.TemplatesWrite, Handler: s.copyStarter},
		{Method: http.MethodPost, Path: "/v1/templates/pdf", Summary: "Make a template from an uploaded PDF (multipart: file, name, slug); answers every text piece found", Auth: authKey, Scope: auth.TemplatesWrite, Upload: true, Handler: s.createPDFTemplate},
		{Method: http.MethodGet, Path: "/v1/templates/:templateId/pieces", Summary: "The text pieces of a template made from a PDF, all or one page's", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.listPieces},
		{Method: http.MethodGet, Path: "/v1/templates/:templateId/pages/:page", Summary: "A page of a template made from a PDF as a PNG (:page is N.png); at 72 dpi the pieces' boxes are its pixels", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.pageImage},
		{Method: http.MethodPost, Path: "/v1/templates", Summary: "Create a template, optionally with its first version", Auth: authKey, Scope: auth.TemplatesWrite, Handler: s.createTemplate},
		{Method: http.MethodGet, Path: "/v1/templates", Summary: "List templates, newest first", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.listTemplates},
		{Method: http.MethodGet, Path: "/v1/templates/:templateId", Summary: "Read a template by id or slug", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.getTemplate},
		{Method: http.MethodPatch, Path: "/v1/templates/:templateId", Summary: "Rename, re-slug, describe, archive or restore a template", Auth: authKey, Scope: auth.TemplatesWrite, Handler: s.patchTemplate},
		{Method: http.MethodDelete, Path: "/v1/templates/:templateId", Summary: "Archive a template", Auth: authKey, Scope: auth.TemplatesWrite, Handler: s.archiveTemplate},
		{Method: http.MethodPost, Path: "/v1/templates/:templateId/versions", Summary: "Save a new version; activate makes it the one that generates", Auth: authKey, Scope: auth.TemplatesWrite, Handler: s.createVersion},
		{Method: http.MethodGet, Path: "/v1/templates/:templateId/versions", Summary: "List a template's versions, newest first", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.listVersions},
		{Method: http.MethodGet, Path: "/v1/templates/:templateId/versions/:n", Summary: "Read a version, source included", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.getVersion},
		{Method: http.MethodPost, Path: "/v1/templates/:templateId/versions/:n/activate", Summary: "Make a saved version the one that generates", Auth: authKey, Scope: auth.TemplatesWrite, Handler: s.activateVersion},
		{Method: http.MethodPost, Path: "/v1/templates/:templateId/preview", Summary: "Render a version, or an unsaved draft, with sample or given data: a watermarked PDF, not billed", Auth: authKey, Scope: auth.TemplatesRead, Handler: s.preview},
		{Method: http.MethodGet, Path: "/v1/openapi.json", Summary: "This API as an OpenAPI 3.1 document", Auth: authNone, Handler: s.openapi},

		{Method: http.MethodPost, Path: "/admin/v1/orgs", Summary: "Create an organisation", Auth: authOperator, Handler: s.adminCreateOrg},
		{Method: http.MethodGet, Path: "/admin/v1/orgs", Summary: "List organisations", Auth: authOperator, Handler: s.adminListOrgs},
		{Method: http.MethodGet, Path: "/admin/v1/orgs/:orgId", Summary: "Read an organisation", Auth: authOperator, Handler: s.adminGetOrg},
		{Method: http.MethodPatch, Path: "/admin/v1/orgs/:orgId", Summary: "Change an organisation's plan", Auth: authOperator, Handler: s.adminPatchOrg},
		{Method: http.MethodPost, Path: "/admin/v1/orgs/:orgId/keys", Summary: "Create an API key; its value is shown once", Auth: authOperator, Handler: s.adminCreateKey},
		{Method: http.MethodGet, Path: "/admin/v1/orgs/:orgId/keys", Summary: "List an organisation's API keys", Auth: authOperator, Handler: s.adminListKeys},
		{Method: http.MethodDelete, Path: "/admin/v1/orgs/:orgId/keys/:keyId", Summary: "Revoke an API key", Auth: authOperator, Handler: s.adminRevokeKey},
		{Method: http.MethodPost, Path: "/admin/v1/orgs/:orgId/wallet/credit", Summary: "Credit an organisation's wallet", Auth: authOperator, Handler: s.adminCredit},
		{Method: http.MethodGet, Path: "/admin/v1/orgs/:orgId/ledger", Summary: "An organisation's whole ledger, oldest first, with its balance and holds", Auth: authOperator, Handler: s.adminLedger},
		{Method: http.MethodGet, Path: "/admin/v1/plans", Summary: "The plan catalogue", Auth: authOperator, Handler: s.adminPlans},
		{Method: http.MethodPut, Path: "/admin/v1/plans/:plan", Summary: "Set a plan's terms", Auth: authOperator, Handler: s.adminPutPlan},
		{Method: http.MethodPost, Path: "/admin/v1/orgs/:orgId/invites", Summary: "Invite a person to an organisation: a one-time link, shown once", Auth: authOperator, Handler: s.adminInvite},
		{Method: http.MethodPost, Path: "/admin/v1/users/reset", Summary: "A one-time link that sets a new password for a person, shown once", Auth: authOperator, Handler: s.adminResetLink},
		{Method: http.MethodGet, Path: "/admin/v1/cluster", Summary: "This node, its raft state and the cluster's members", Auth: authOperator, Handler: s.adminCluster},
		{Method: http.MethodDelete, Path: "/admin/v1/cluster/nodes/:nodeId", Summary: "Remove a node that is gone for good from the raft configuration", Auth: authOperator, Handler: s.adminRemoveNode},
	}
	rs = append(rs, s.consoleTable()...)
	for _, r := range rs {
		r.segments = strings.Split(r.Path, "/")
	}
	return rs
}

// operation is one entry of the index's operations list.
type operation struct {
	Method  string     `json:"method"`
	Path    string     `json:"path"`
	Summary string     `json:"summary"`
	Scope   auth.Scope `json:"scope,omitempty"`
}

// indexBody is the answer of GET /v1 (spec "Index").
type indexBody struct {
	Success        bool             `json:"success"`
	Version        string           `json:"version"`
	Organisation   string           `json:"organisation"`
	OrganisationID string           `json:"organisationId"`
	Plan           string           `json:"plan"`
	Scopes         []auth.ScopeInfo `json:"scopes"`
	Operations     []operation      `json:"operations"`
	Message        string           `json:"message"`
}

func (s *Server) index(r *request) error {
	body := indexBody{
		Success: true, Version: "v1", Organisation: r.org.Name, OrganisationID: r.org.ID, Plan: r.org.Plan,
		Scopes: []auth.ScopeInfo{}, Message: "Platen API v1",
	}
	for _, sc := range auth.Scopes {
		if auth.Grants(r.key.Scopes, sc.Scope) {
			body.Scopes = append(body.Scopes, sc)
		}
	}
	for _, rt := range s.routes {
		if strings.HasPrefix(rt.Path, "/v1") {
			body.Operations = append(body.Operations, operation{Method: rt.Method, Path: rt.Path, Summary: rt.Summary, Scope: rt.Scope})
		}
	}
	return r.writeJSON(http.StatusOK, body)
}

// consoleTable is the console's own routes (docs/console.md): what only
// people do. They are not part of the public API and not in openapi.yaml.
// Sign-in, sign-up and links come before any session and check their origin
// (checkAnonymousPost); the rest take a session (authPerson), and the Owner
// ones an owner.
func (s *Server) consoleTable() []*route {
	return []*route{
		{Method: http.MethodGet, Path: "/console/api/config", Summary: "Whether this node allows signing up", Auth: authNone, Handler: s.consoleConfig},
		{Method: http.MethodPost, Path: "/console/api/signin", Summary: "Sign in with email and password", Auth: authNone, Handler: s.signIn},
		{Method: http.MethodPost, Path: "/console/api/signup", Summary: "Sign up into a sandbox organisation of one's own, when the node allows it", Auth: authNone, Handler: s.signUp},
		{Method: http.MethodPost, Path: "/console/api/links/lookup", Summary: "What a one-time link is for", Auth: authNone, Handler: s.lookupLink},
		{Method: http.MethodPost, Path: "/console/api/links/accept", Summary: "Use a one-time link: set a password and sign in", Auth: authNone, Handler: s.acceptLink},
		{Method: http.MethodGet, Path: "/console/api/me", Summary: "Who is signed in, their role, scopes and CSRF token", Auth: authPerson, Handler: s.getMe},
		{Method: http.MethodPost, Path: "/console/api/signout", Summary: "Sign out, here or everywhere", Auth: authPerson, Handler: s.signOut},
		{Method: http.MethodPost, Path: "/console/api/switch", Summary: "Act in another of one's organisations", Auth: authPerson, Handler: s.switchOrg},
		{Method: http.MethodPost, Path: "/console/api/password", Summary: "Change one's password", Auth: authPerson, Handler: s.changePassword},
		{Method: http.MethodGet, Path: "/console/api/keys", Summary: "The organisation's API keys", Auth: authPerson, Owner: true, Handler: s.consoleKeys},
		{Method: http.MethodPost, Path: "/console/api/keys", Summary: "Create an API key; its value is shown once", Auth: authPerson, Owner: true, Handler: s.createKey},
		{Method: http.MethodDelete, Path: "/console/api/keys/:keyId", Summary: "Revoke an API key", Auth: authPerson, Owner: true, Handler: s.revokeKey},
		{Method: http.MethodGet, Path: "/console/api/members", Summary: "The organisation's people", Auth: authPerson, Owner: true, Handler: s.consoleMembers},
		{Method: http.MethodPost, Path: "/console/api/invites", Summary: "Invite a person: a one-time link, shown once", Auth: authPerson, Owner: true, Handler: s.consoleInvite},
		{Method: http.MethodGet, Path: "/console/api/invites", Summary: "The organisation's invitations not yet used", Auth: authPerson, Owner: true, Handler: s.consoleInvitations},
		{Method: http.MethodDelete, Path: "/console/api/invites/:inviteId", Summary: "Take back an unused invitation", Auth: authPerson, Owner: true, Handler: s.consoleRevokeInvitation},
		{Method: http.MethodPatch, Path: "/console/api/members/:userId", Summary: "Change a person's role", Auth: authPerson, Owner: true, Handler: s.consoleSetRole},
		{Method: http.MethodDelete, Path: "/console/api/members/:userId", Summary: "Remove a person from the organisation", Auth: authPerson, Owner: true, Handler: s.consoleRemoveMember},
	}
}
