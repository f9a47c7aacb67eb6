// Package actors holds Platen's actors on a hollywood engine: one per
// organisation (its records, keys, wallet and feed), and later one per
// document and per webhook endpoint. An actor is the one writer of its state
// (DESIGN.md "Consistency rules" 1): it decides, then proposes a command to the
// raft log, which makes the decision durable.
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
// Dependencies point one way: transport → actors → domain packages → storage.
// This package never imports transport.
package actors
