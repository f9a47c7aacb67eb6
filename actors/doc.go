// Package actors holds Platen's actors on a hollywood engine: one per
// organisation (its records, keys, wallet, templates and documents' changes;
// org.go), one per document being rendered (documents.go), and one per
// webhook endpoint (its deliveries, signed, with backoff; webhooks.go). An
// actor is the one writer of its state (docs/design.md "Consistency" rule 1): it
// decides, then proposes a command to the raft log, which makes the decision
// durable.
//
// An org actor pipelines: it applies each decision to its own copy of the org
// at once and proposes the command without waiting, so raft batches many
// proposals into one disk write. Each command carries the org version the actor
// decided on; if one fails, later ones are refused as stale by the state
// machine, and the actor stops taking writes until everything in flight has
// settled, then reloads from the store. A caller is answered only after its
// command is applied, so no acknowledged write can be lost.
//
// Every actor runs behind Recover, a middleware that turns a panic into a
// logged error and a reply, because hollywood's own restart path takes the
// process down on the fourth panic.
//
// Org and endpoint actors live on the node that placement names as their
// owner; an ask from another node travels in one typed envelope over the
// cluster port (remote.go). Admission (admission.go) decides which node
// renders a new document and bounds each node's queue; blobs.go copies
// finished PDFs and uploads to a second node.
//
// Dependencies point one way: transport → app → actors → cluster → storage →
// the domain rules, and actors → render (docs/architecture.md "The parts";
// internal/deptest). This package never imports app or transport.
package actors
