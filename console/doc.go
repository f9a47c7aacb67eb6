// Package console holds the dashboard: the web console an organisation's
// people use to manage keys, templates, uploaded PDFs, documents, webhooks,
// money and people (docs/console.md).
//
// It is a small single-page application of plain ES modules and one style
// sheet, with no build step, embedded in the binary and served by every node
// at "/" (transport/console.go). The application calls the same /v1 routes
// as API clients, authenticated by a session cookie, and a few /console/api
// routes for what only people do (sign-in, links, members, keys); so every
// rule it meets is the server's, and it shows the server's refusals.
//
// This package only holds and describes the files: which paths are pages of
// the application, and each asset with its content type and a validator.
package console
