// Package transport is how Platen is reached: the REST API under /v1, the
// operator API under /admin/v1, and the health and metrics endpoints, all on
// fasthttp.
//
// Every route is declared once, in routes.go, with its method, path, summary,
// required scope and handler; the router, the GET /v1 index and the check of
// the OpenAPI document (openapi.yaml) all read that table. Handlers return
// errors; statusOf (errors.go) alone maps an error to its HTTP status and
// stable error code, and every answer uses the envelopes of the spec and
// docs/design.md "Errors".
//
// Handlers only decode, call and encode: a use case of more than one step
// is a function of package app, shared with the realtime namespace (and the
// dashboard next); one that is a single decision is an actor message. Reads
// go straight to the local store.
// Secrets are never logged: not keys, not the operator token, not bodies.
package transport
