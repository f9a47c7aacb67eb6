/** An operation of the API: its method and its path, with `{param}` for each part filled in. */
export interface Operation {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  readonly path: string;
}

/**
 * Every /v1 operation this client calls, by name. Every method of the client
 * goes through this table, and the package's tests check it against the
 * node's /v1/openapi.json both ways: a route the client lacks, or an
 * operation the API lacks, fails.
 */
export const operations = {
  index: { method: "GET", path: "/v1" },
  openapi: { method: "GET", path: "/v1/openapi.json" },
  realtime: { method: "GET", path: "/v1/realtime" },

  "wallet.get": { method: "GET", path: "/v1/wallet" },
  "wallet.ledger": { method: "GET", path: "/v1/wallet/ledger" },
  "wallet.usage": { method: "GET", path: "/v1/wallet/usage" },

  "documents.create": { method: "POST", path: "/v1/documents" },
  "documents.list": { method: "GET", path: "/v1/documents" },
  "documents.stats": { method: "GET", path: "/v1/documents/stats" },
  "documents.get": { method: "GET", path: "/v1/documents/{id}" },
  "documents.downloadLink": { method: "GET", path: "/v1/documents/{id}/download" },
  "documents.einvoiceXml": { method: "GET", path: "/v1/documents/{id}/einvoice" },
  "documents.thumbnail": { method: "GET", path: "/v1/documents/{id}/thumbnail" },
  "documents.data": { method: "GET", path: "/v1/documents/{id}/data" },
  "documents.regenerate": { method: "POST", path: "/v1/documents/{id}/regenerate" },

  "webhooks.create": { method: "POST", path: "/v1/webhooks" },
  "webhooks.list": { method: "GET", path: "/v1/webhooks" },
  "webhooks.get": { method: "GET", path: "/v1/webhooks/{id}" },
  "webhooks.update": { method: "PATCH", path: "/v1/webhooks/{id}" },
  "webhooks.delete": { method: "DELETE", path: "/v1/webhooks/{id}" },
  "webhooks.deliveries": { method: "GET", path: "/v1/webhooks/{id}/deliveries" },
  "webhooks.ping": { method: "POST", path: "/v1/webhooks/{id}/ping" },

  "keys.list": { method: "GET", path: "/v1/keys" },
  "keys.create": { method: "POST", path: "/v1/keys" },
  "keys.revoke": { method: "DELETE", path: "/v1/keys/{keyId}" },

  "signing.create": { method: "POST", path: "/v1/signing/certificates" },
  "signing.list": { method: "GET", path: "/v1/signing/certificates" },
  "signing.get": { method: "GET", path: "/v1/signing/certificates/{id}" },
  "signing.delete": { method: "DELETE", path: "/v1/signing/certificates/{id}" },

  "templates.library": { method: "GET", path: "/v1/templates/library" },
  "templates.starterThumbnail": { method: "GET", path: "/v1/templates/library/{starterSlug}/thumbnail.png" },
  "templates.copyStarter": { method: "POST", path: "/v1/templates/library/{starterSlug}/copy" },
  "templates.createFromPDF": { method: "POST", path: "/v1/templates/pdf" },
  "templates.pieces": { method: "GET", path: "/v1/templates/{templateId}/pieces" },
  "templates.pageImage": { method: "GET", path: "/v1/templates/{templateId}/pages/{page}" },
  "templates.create": { method: "POST", path: "/v1/templates" },
  "templates.list": { method: "GET", path: "/v1/templates" },
  "templates.get": { method: "GET", path: "/v1/templates/{templateId}" },
  "templates.update": { method: "PATCH", path: "/v1/templates/{templateId}" },
  "templates.archive": { method: "DELETE", path: "/v1/templates/{templateId}" },
  "templates.createVersion": { method: "POST", path: "/v1/templates/{templateId}/versions" },
  "templates.listVersions": { method: "GET", path: "/v1/templates/{templateId}/versions" },
  "templates.getVersion": { method: "GET", path: "/v1/templates/{templateId}/versions/{n}" },
  "templates.activateVersion": { method: "POST", path: "/v1/templates/{templateId}/versions/{n}/activate" },
  "templates.preview": { method: "POST", path: "/v1/templates/{templateId}/preview" },
} as const satisfies Record<string, Operation>;

/** The name of an operation of the table. */
export type OperationName = keyof typeof operations;
