// Package billing prices documents: it is the one place that decides how a
// document's pages split between an organisation's monthly page allowance
// and its prepaid wallet, and what the wallet pays for them (docs/design.md
// "Money").
//
// Two moments use it. Before rendering, Hold reserves a document's
// estimated pages, or refuses with fault.ErrPaymentRequired when nothing can
// pay. After rendering, Charge prices the pages the PDF actually has; it never
// refuses, since a finished render is never thrown away. Both split pages with
// the same function, Price.
//
// Everything here is a pure function of its arguments: amounts are integers in
// micro-units of the wallet currency, and the time of a decision is passed in,
// never read from a clock. The raft state machine (package storage) calls
// Charge while applying a completion on every replica, so its answers must be
// the same everywhere and forever for the same inputs: a change of a number
// here changes how old raft logs replay.
//
// Billing owns no state. The organisation's account (its allowance used, its
// holds and its balance) is a field set of storage.Org, decided by the org
// actor (package actors) and written by the state machine; billing imports
// nothing of Platen's but internal/fault.
package billing
