// Package storage is Platen's durable state: a local Pebble database written only
// by the raft state machine (FSM), and the raft log itself, also on Pebble.
//
// Every state change is a Command in the raft log. The FSM applies each command
// as one synced Pebble batch, so a change, its index entries, its ledger rows and
// its change-feed events land together or not at all (DESIGN.md "Consistency
// rules" 2). The FSM is deterministic: ids and timestamps arrive in the command,
// chosen by the proposer (rule 3). Org-scoped commands carry the org version the
// proposing org actor saw; the FSM refuses a stale one with ErrStale, so a second,
// out-of-date owner can never apply a change twice (rule 1).
//
// Reads are local and go straight to Pebble (rule 4). Records are stored with a
// leading codec version byte so their encoding can evolve.
//
// Owner: the org actor (package actors) decides every org-scoped command; this
// package only checks and applies.
package storage
