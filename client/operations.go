package client

import (
	"net/http"
	"net/url"
	"strings"
)

// operation is a route of the API as /v1/openapi.json names it. Every call
// of the client goes through one of the values below, and the tests walk
// them against the OpenAPI document of a running node: a route the client
// lacks, or a path the API lacks, fails them.
type operation struct {
	Method string
	Path   string
	// generates marks POST /v1/documents, which always carries an
	// Idempotency-Key.
	generates bool
}

// idempotent reports whether repeating the request has the effect of
// sending it once (RFC 9110 9.2.2).
func (o operation) idempotent() bool {
	switch o.Method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// expand puts params, escaped, into the path's {placeholders} in order.
func (o operation) expand(params ...string) string {
	var b strings.Builder
	rest := o.Path
	for _, p := range params {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest, '}')
		if i < 0 || j < i {
			panic("platen: too many parameters for " + o.Path)
		}
		b.WriteString(rest[:i])
		b.WriteString(url.PathEscape(p))
		rest = rest[j+1:]
	}
	if strings.IndexByte(rest, '{') >= 0 {
		panic("platen: too few parameters for " + o.Path)
	}
	b.WriteString(rest)
	return b.String()
}

var (
	opIndex    = operation{Method: "GET", Path: "/v1"}
	opOpenAPI  = operation{Method: "GET", Path: "/v1/openapi.json"}
	opRealtime = operation{Method: "GET", Path: "/v1/realtime"}

	opWallet       = operation{Method: "GET", Path: "/v1/wallet"}
	opWalletLedger = operation{Method: "GET", Path: "/v1/wallet/ledger"}
	opWalletUsage  = operation{Method: "GET", Path: "/v1/wallet/usage"}

	opCreateDocument = operation{Method: "POST", Path: "/v1/documents", generates: true}
	opListDocuments  = operation{Method: "GET", Path: "/v1/documents"}
	opDocumentStats  = operation{Method: "GET", Path: "/v1/documents/stats"}
	opGetDocument    = operation{Method: "GET", Path: "/v1/documents/{id}"}
	opDownloadLink   = operation{Method: "GET", Path: "/v1/documents/{id}/download"}
	opEInvoiceXML    = operation{Method: "GET", Path: "/v1/documents/{id}/einvoice"}
	opThumbnail      = operation{Method: "GET", Path: "/v1/documents/{id}/thumbnail"}
	opDocumentData   = operation{Method: "GET", Path: "/v1/documents/{id}/data"}
	opRegenerate     = operation{Method: "POST", Path: "/v1/documents/{id}/regenerate"}

	opCreateWebhook  = operation{Method: "POST", Path: "/v1/webhooks"}
	opListWebhooks   = operation{Method: "GET", Path: "/v1/webhooks"}
	opGetWebhook     = operation{Method: "GET", Path: "/v1/webhooks/{id}"}
	opUpdateWebhook  = operation{Method: "PATCH", Path: "/v1/webhooks/{id}"}
	opDeleteWebhook  = operation{Method: "DELETE", Path: "/v1/webhooks/{id}"}
	opListDeliveries = operation{Method: "GET", Path: "/v1/webhooks/{id}/deliveries"}
	opPingWebhook    = operation{Method: "POST", Path: "/v1/webhooks/{id}/ping"}

	opLibrary          = operation{Method: "GET", Path: "/v1/templates/library"}
	opStarterThumbnail = operation{Method: "GET", Path: "/v1/templates/library/{starterSlug}/thumbnail.png"}
	opCopyStarter      = operation{Method: "POST", Path: "/v1/templates/library/{starterSlug}/copy"}
	opUploadPDF        = operation{Method: "POST", Path: "/v1/templates/pdf"}
	opPieces           = operation{Method: "GET", Path: "/v1/templates/{templateId}/pieces"}
	opPageImage        = operation{Method: "GET", Path: "/v1/templates/{templateId}/pages/{page}"}
	opCreateTemplate   = operation{Method: "POST", Path: "/v1/templates"}
	opListTemplates    = operation{Method: "GET", Path: "/v1/templates"}
	opGetTemplate      = operation{Method: "GET", Path: "/v1/templates/{templateId}"}
	opUpdateTemplate   = operation{Method: "PATCH", Path: "/v1/templates/{templateId}"}
	opArchiveTemplate  = operation{Method: "DELETE", Path: "/v1/templates/{templateId}"}
	opCreateVersion    = operation{Method: "POST", Path: "/v1/templates/{templateId}/versions"}
	opListVersions     = operation{Method: "GET", Path: "/v1/templates/{templateId}/versions"}
	opGetVersion       = operation{Method: "GET", Path: "/v1/templates/{templateId}/versions/{n}"}
	opActivateVersion  = operation{Method: "POST", Path: "/v1/templates/{templateId}/versions/{n}/activate"}
	opPreview          = operation{Method: "POST", Path: "/v1/templates/{templateId}/preview"}

	opListKeys  = operation{Method: "GET", Path: "/v1/keys"}
	opCreateKey = operation{Method: "POST", Path: "/v1/keys"}
	opRevokeKey = operation{Method: "DELETE", Path: "/v1/keys/{keyId}"}

	opCreateCertificate = operation{Method: "POST", Path: "/v1/signing/certificates"}
	opListCertificates  = operation{Method: "GET", Path: "/v1/signing/certificates"}
	opGetCertificate    = operation{Method: "GET", Path: "/v1/signing/certificates/{id}"}
	opDeleteCertificate = operation{Method: "DELETE", Path: "/v1/signing/certificates/{id}"}
)

// operations is every operation of the client.
var operations = []operation{
	opIndex, opOpenAPI, opRealtime,
	opWallet, opWalletLedger, opWalletUsage,
	opCreateDocument, opListDocuments, opDocumentStats, opGetDocument, opDownloadLink, opEInvoiceXML, opThumbnail, opDocumentData, opRegenerate,
	opCreateWebhook, opListWebhooks, opGetWebhook, opUpdateWebhook, opDeleteWebhook, opListDeliveries, opPingWebhook,
	opLibrary, opStarterThumbnail, opCopyStarter, opUploadPDF, opPieces, opPageImage,
	opCreateTemplate, opListTemplates, opGetTemplate, opUpdateTemplate, opArchiveTemplate,
	opCreateVersion, opListVersions, opGetVersion, opActivateVersion, opPreview,
	opListKeys, opCreateKey, opRevokeKey,
	opCreateCertificate, opListCertificates, opGetCertificate, opDeleteCertificate,
}
