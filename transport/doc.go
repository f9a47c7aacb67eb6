// Package transport is how Platen is reached: the REST API under /v1, the
// operator API under /admin/v1, and the health and metrics endpoints, all on
// fasthttp.
//
// Every route is declared once, in routes.go, with its method, path, summary,
// required scope and handler; the router, the GET /v1 index and the check of
// the OpenAPI document (openapi.yaml) all read that table. Handlers return
// errors; statusOf (errors.go) alone maps an error to its HTTP status and
// stable error code, and every answer uses the envelopes of the spec and
// DESIGN.md.
//
// Reads go straight to the local store; writes go to the owning actor.
// Secrets are never logged: not keys, not the operator token, not bodies.
package transport
