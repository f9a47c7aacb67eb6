// Package storage is Platen's durable state: a local Pebble database written only
// by the raft state machine (FSM), and the raft log itself, also on Pebble.
//
// Every state change is a Command in the raft log. The FSM applies the commands
// raft hands it in one Pebble batch, and a command is written whole or,
// when refused, not at all, so a change, its index entries, its ledger rows and
// its change-feed events land together (docs/design.md "Consistency" rule 2). The
// FSM is deterministic: ids and timestamps arrive in the command, chosen by the
// proposer (rule 3). Org-scoped commands carry the org version the proposing org
// actor saw; the FSM refuses a stale one with ErrStale, so a second, out-of-date
// owner can never apply a change twice (rule 1).
//
// Durability lives in the raft log, which is synced before an entry is
// committed. The state's batches are not synced: each carries the applied
// index, so what a crash loses is applied again from the log on start, and a
// snapshot syncs the state before raft may forget the entries it covers.
//
// Reads are local and go straight to Pebble (rule 4). Records are stored with a
// leading codec version byte so their encoding can evolve.
//
// Each record family has one file holding its records, its keys, the bodies
// of its commands, the functions that apply them and its reads: operator.go
// (operator token, link key, plans), orgs.go (organisations, API keys, the
// wallet and its ledger), feed.go (the change feed), templates.go,
// documents.go and webhooks.go. fsm.go is the raft state machine: it applies
// batches, takes and restores snapshots, and hands each command kind to its
// one function (appliers), with the steps all org-scoped commands share. What
// a document costs is priced by package billing, as are the org actor's
// reservations.
//
// Owner: the org actor (package actors) decides every org-scoped command; this
// package only checks and applies.
package storage
