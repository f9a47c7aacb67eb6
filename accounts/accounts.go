// Package accounts holds the rules about people that more than one layer
// applies (docs/design.md "Accounts and the dashboard"): the roles a person
// can hold in an organisation, and the sign-in throttle. The state machine
// (storage/accounts.go) applies the throttle to the replicated account, so
// every node enforces the same lock; the sign-in (app/accounts.go) waits as
// it says. It imports nothing of Platen's.
package accounts

import "time"

// Roles of a person in an organisation.
const (
	// RoleOwner manages keys, webhooks, people and sees the wallet, besides
	// all a member does.
	RoleOwner = "owner"
	// RoleMember generates documents and reads and edits templates.
	RoleMember = "member"
)

// KnownRole reports whether r is a role.
func KnownRole(r string) bool { return r == RoleOwner || r == RoleMember }

// The sign-in throttle: the one rule for how failed sign-ins to an account slow down and then lock
// it. The state machine applies it to the replicated account, so every node
// enforces the same lock.
const (
	// SlowAfter failed sign-ins in a row, each further attempt first waits
	// SlowDelay (on the node that answers).
	SlowAfter = 3
	SlowDelay = time.Second
	// LockAfter failed sign-ins in a row lock the account for LockFor.
	LockAfter = 10
	LockFor   = 15 * time.Minute
	// FailuresForget is how long after its last failure a run of failures
	// is forgotten.
	FailuresForget = time.Hour
)

// AfterFailure returns the run of failures once a sign-in at at has failed,
// given the run before it and when its last failure was, and until when the
// account is locked (zero when it is not).
func AfterFailure(failures int, lastFailed, at time.Time) (run int, lockedUntil time.Time) {
	if at.Sub(lastFailed) > FailuresForget {
		failures = 0
	}
	run = failures + 1
	if run >= LockAfter {
		return run, at.Add(LockFor)
	}
	return run, time.Time{}
}

// SignInDelay is how long a sign-in waits before it is checked, given the
// account's run of failures: nothing for the first few, SlowDelay after.
func SignInDelay(failures int, lastFailed, at time.Time) time.Duration {
	if failures >= SlowAfter && at.Sub(lastFailed) <= FailuresForget {
		return SlowDelay
	}
	return 0
}
