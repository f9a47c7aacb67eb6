package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/platen/platen/accounts"
)

// People, their memberships, console sessions and one-time links
// (docs/design.md "Accounts and the dashboard"). None of these commands is
// org-scoped: they never move an organisation's version, so they cannot make
// an org actor's next proposal stale. The rules that need every membership of
// an organisation at once (an organisation keeps an owner) are checked here,
// in the state machine, where commands are applied one at a time in log order.

// User is a person who signs in to the console.
type User struct {
	ID string `json:"id"`
	// Email is the address a person signs in with, lower-cased.
	Email string `json:"email"`
	Name  string `json:"name,omitempty"`
	// PasswordHash is the argon2id PHC string; empty until a link sets it.
	PasswordHash      string     `json:"passwordHash,omitempty"`
	CreatedAt         time.Time  `json:"createdAt"`
	PasswordChangedAt *time.Time `json:"passwordChangedAt,omitempty"`
}

// Throttle is the run of password attempts against one email (sign-ins,
// and the current password of a change) since its last success, stored
// under the SHA-256 of the email whether or not an account has it, so an
// unknown email slows and locks as a known one does. An attempt counts as
// failed until the success that ends the run: so attempts made at once are
// counted before any is checked, and at most accounts.LockAfter are checked
// before the lock.
type Throttle struct {
	Failures     int        `json:"failures"`
	LastFailedAt time.Time  `json:"lastFailedAt"`
	LockedUntil  *time.Time `json:"lockedUntil,omitempty"`
}

// Locked reports whether attempts are refused at now.
func (t Throttle) Locked(now time.Time) bool {
	return t.LockedUntil != nil && now.Before(*t.LockedUntil)
}

// Membership is a user's role in one organisation.
type Membership struct {
	UserID    string    `json:"userId"`
	OrgID     string    `json:"orgId"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"createdAt"`
}

// Session is a signed-in console session. Its id lives only in the person's
// cookie; the record is stored under the id's hash.
type Session struct {
	Hash   string `json:"hash"`
	UserID string `json:"userId"`
	// OrgID is the organisation the session acts in.
	OrgID string `json:"orgId"`
	// CSRF is the token every state-changing request of the session carries.
	CSRF       string    `json:"csrf"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	// ExpiresAt is the absolute end of the session, however active.
	ExpiresAt time.Time `json:"expiresAt"`
}

// Session lifetimes (docs/design.md "Accounts and the dashboard").
const (
	// SessionIdle ends a session nobody used for this long.
	SessionIdle = 12 * time.Hour
	// SessionLifetime ends every session this long after sign-in.
	SessionLifetime = 7 * 24 * time.Hour
	// SessionTouchEvery is how stale a session's LastSeenAt may get before a
	// request records a new one: a raft entry per session per interval, not
	// per request, at the cost of the idle expiry being this much late.
	SessionTouchEvery = 10 * time.Minute
)

// Live reports whether the session is still valid at now.
func (s Session) Live(now time.Time) bool {
	return now.Before(s.ExpiresAt) && now.Before(s.LastSeenAt.Add(SessionIdle))
}

// One-time link purposes.
const (
	// LinkOwner makes the first owner of an organisation (printed at first
	// start, without an email: its holder gives theirs).
	LinkOwner = "owner"
	// LinkInvite makes its holder a member of an organisation.
	LinkInvite = "invite"
	// LinkReset sets a new password for an existing person.
	LinkReset = "reset"
)

// LinkLifetime is how long a one-time link may be used.
const LinkLifetime = 24 * time.Hour

// Link is a one-time link, stored under its token's hash.
type Link struct {
	Hash    string `json:"hash"`
	Purpose string `json:"purpose"`
	Email   string `json:"email"`
	// OrgID and Role are where an owner or invite link makes its holder a
	// member; empty for a reset.
	OrgID     string     `json:"orgId,omitempty"`
	Role      string     `json:"role,omitempty"`
	CreatedBy string     `json:"createdBy,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt time.Time  `json:"expiresAt"`
	UsedAt    *time.Time `json:"usedAt,omitempty"`
	// RevokedAt is set when an owner took the invitation back unused.
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
}

// Usable reports whether the link may still be used at now.
func (l Link) Usable(now time.Time) bool {
	return l.UsedAt == nil && l.RevokedAt == nil && now.Before(l.ExpiresAt)
}

// RevokeLink takes back an organisation's unused invitation.
type RevokeLink struct {
	Hash  string `json:"hash"`
	OrgID string `json:"orgId"`
}

// CreateLink stores a one-time link.
type CreateLink struct {
	Link Link `json:"link"`
}

// AcceptLink uses a one-time link: it creates the person if the link's email
// has no account (with NewUserID), sets the password, adds the membership an
// owner or invite link names, and starts Session. A reset first ends every
// session of the person.
type AcceptLink struct {
	Hash string `json:"hash"`
	// Current is, when the link's email has an account and the link is not
	// a reset, the account's password hash the holder proved they know: the
	// link then only adds the membership, and is refused if the password
	// changed meanwhile. An invitation never sets an existing account's
	// password, or anyone who can invite could take the account.
	Current string `json:"current,omitempty"`
	// Email is the holder's email, for a link made without one (the first
	// owner's, printed before anyone's email is known).
	Email        string  `json:"email,omitempty"`
	NewUserID    string  `json:"newUserId"`
	Name         string  `json:"name,omitempty"`
	PasswordHash string  `json:"passwordHash"`
	Session      Session `json:"session"`
}

// SignUp creates a person who signed up on their own, as the owner of a
// sandbox organisation made for them a moment before, and signs them in.
type SignUp struct {
	User    User    `json:"user"`
	Session Session `json:"session"`
}

// StartSession signs a person in: it stores the session. After a password
// check, Verified is the password hash that was checked, and the run of
// attempts on the email ends; the session is refused if the password
// changed meanwhile (a reset on another node).
type StartSession struct {
	Session  Session `json:"session"`
	Verified string  `json:"verified,omitempty"`
}

// PasswordAttempt counts an attempt at a password for the email whose
// SHA-256 is EmailHash, before it is checked; refused (ErrLocked) while
// the email is locked.
type PasswordAttempt struct {
	EmailHash string `json:"emailHash"`
}

// TouchSession records that a session was used at the command's time.
type TouchSession struct {
	Hash string `json:"hash"`
}

// EndSessions ends one session (Hash), several (Hashes: the janitor's
// expired ones), or every session of a person (UserID) but Keep, or every
// session of a person in one organisation (UserID and OrgID).
type EndSessions struct {
	Hash   string   `json:"hash,omitempty"`
	Hashes []string `json:"hashes,omitempty"`
	UserID string   `json:"userId,omitempty"`
	OrgID  string   `json:"orgId,omitempty"`
	Keep   string   `json:"keep,omitempty"`
}

// SetPassword changes a person's password and ends their other sessions.
type SetPassword struct {
	UserID       string `json:"userId"`
	PasswordHash string `json:"passwordHash"`
	// Keep is the session that changed it, which stays signed in.
	Keep string `json:"keep,omitempty"`
}

// SetRole changes a member's role in an organisation.
type SetRole struct {
	OrgID  string `json:"orgId"`
	UserID string `json:"userId"`
	Role   string `json:"role"`
}

// RemoveMember takes a person out of an organisation and ends their
// sessions in it.
type RemoveMember struct {
	OrgID  string `json:"orgId"`
	UserID string `json:"userId"`
}

// KeyUsed records when an API key last authenticated a request.
type KeyUsed struct {
	KeyID string `json:"keyId"`
}

// ErrLastOwner is returned when a change would leave an organisation
// without an owner.
var ErrLastOwner = fmt.Errorf("%w: an organisation keeps at least one owner", ErrConflict)

// ErrLinkUsed is returned when a one-time link was used or has expired.
var ErrLinkUsed = fmt.Errorf("%w: this link was used already or has expired; ask for a new one", ErrConflict)

// ErrLocked is returned for a password attempt on an email locked by
// repeated failures (accounts.AfterFailure).
var ErrLocked = errors.New("too many failed attempts: locked for a while")

// ErrPasswordChanged is returned when a password checked on one node
// changed before the command that relied on it was applied.
var ErrPasswordChanged = fmt.Errorf("%w: the password changed meanwhile; try again", ErrConflict)

// ErrEmailTaken is returned when signing up with the email of an account.
var ErrEmailTaken = fmt.Errorf("%w: an account with this email exists; sign in instead", ErrConflict)

// Keys of people, memberships, sessions and links.
//
//	u/<userID>             User
//	ue/<email>             userID
//	um/<userID>/<orgID>    Membership
//	om/<orgID>/<userID>    Membership (the same record, read by organisation)
//	s/<sha256 hex>         Session
//	us/<userID>/<hash>     orgID: a person's sessions
//	ol/<sha256 hex>        Link
//	sf/<sha256 hex>        Throttle, by the SHA-256 of an email
//	oi/<orgID>/<hash>      empty: an organisation's invitations
func userKey(id string) []byte                { return []byte("u/" + id) }
func userEmailKey(email string) []byte        { return []byte("ue/" + email) }
func userOrgsPrefix(userID string) []byte     { return []byte("um/" + userID + "/") }
func orgMembersPrefix(orgID string) []byte    { return []byte("om/" + orgID + "/") }
func sessionKey(hash string) []byte           { return []byte("s/" + hash) }
func userSessionsPrefix(userID string) []byte { return []byte("us/" + userID + "/") }
func linkKey(hash string) []byte              { return []byte("ol/" + hash) }
func throttleKey(emailHash string) []byte     { return []byte("sf/" + emailHash) }
func orgInvitesPrefix(orgID string) []byte    { return []byte("oi/" + orgID + "/") }

// EmailHash is the SHA-256 of an email as Throttle records are stored under
// (hex, as auth.Hash writes it).
func EmailHash(email string) string {
	sum := sha256.Sum256([]byte(NormalEmail(email)))
	return hex.EncodeToString(sum[:])
}

// NormalEmail is an email as accounts store and look it up.
func NormalEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

func (t *txn) putMembership(m Membership) {
	t.set(append(userOrgsPrefix(m.UserID), m.OrgID...), mustEncode(&m))
	t.set(append(orgMembersPrefix(m.OrgID), m.UserID...), mustEncode(&m))
}

func (t *txn) putSession(s Session) {
	t.set(sessionKey(s.Hash), mustEncode(&s))
	t.set(append(userSessionsPrefix(s.UserID), s.Hash...), []byte(s.OrgID))
}

// endSessions deletes a person's sessions, those in orgID only when it is
// given, but keep.
func (t *txn) endSessions(userID, orgID, keep string) error {
	prefix := userSessionsPrefix(userID)
	var ends [][2]string
	err := iterate(t.b, prefix, func(k, v []byte) error {
		hash := string(k[len(prefix):])
		if hash != keep && (orgID == "" || string(v) == orgID) {
			ends = append(ends, [2]string{hash, string(k)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, e := range ends {
		t.delete(sessionKey(e[0]))
		t.delete([]byte(e[1]))
	}
	return t.err
}

// owners counts an organisation's owners.
func owners(r pebble.Reader, orgID string) (int, error) {
	n := 0
	err := iterate(r, orgMembersPrefix(orgID), func(_, v []byte) error {
		var m Membership
		if err := decode(v, &m); err != nil {
			return err
		}
		if m.Role == accounts.RoleOwner {
			n++
		}
		return nil
	})
	return n, err
}

// iterate calls fn for each key under prefix in r, in order.
func iterate(r pebble.Reader, prefix []byte, fn func(k, v []byte) error) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			it.Close()
			return err
		}
	}
	return it.Close()
}

// member checks that userID is a member of orgID and returns the membership.
func member(r reader, userID, orgID string) (Membership, error) {
	var m Membership
	err := getRecord(r, append(userOrgsPrefix(userID), orgID...), &m)
	if errors.Is(err, ErrNotFound) {
		return m, fmt.Errorf("%w: %s is not a member of %s", ErrNotFound, userID, orgID)
	}
	return m, err
}

func applyCreateLink(t *txn, c *Command) error {
	l := c.CreateLink.Link
	if l.OrgID != "" {
		if err := exists(t.b, orgKey(l.OrgID)); err != nil {
			return fmt.Errorf("organisation %s: %w", l.OrgID, err)
		}
	}
	if err := exists(t.b, linkKey(l.Hash)); err == nil {
		return fmt.Errorf("%w: link exists", ErrConflict)
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	t.set(linkKey(l.Hash), mustEncode(&l))
	if l.Purpose == LinkInvite {
		t.set(append(orgInvitesPrefix(l.OrgID), l.Hash...), nil)
	}
	return t.err
}

// applyRevokeLink takes back an unused invitation of the command's
// organisation; one used, revoked or another organisation's is not found.
func applyRevokeLink(t *txn, c *Command) error {
	r := c.RevokeLink
	var l Link
	err := getRecord(t.b, linkKey(r.Hash), &l)
	if errors.Is(err, ErrNotFound) || (err == nil && (l.OrgID != r.OrgID || l.Purpose != LinkInvite || l.UsedAt != nil || l.RevokedAt != nil)) {
		return fmt.Errorf("%w: invitation %s", ErrNotFound, r.Hash)
	}
	if err != nil {
		return err
	}
	at := c.At
	l.RevokedAt = &at
	t.set(linkKey(l.Hash), mustEncode(&l))
	t.delete(append(orgInvitesPrefix(l.OrgID), l.Hash...))
	return t.err
}

// exists reports whether key is present: nil, ErrNotFound, or the store's
// own error, which an applier returns as it is (a failed read is not a
// refusal: storage/fsm.go).
func exists(r reader, key []byte) error {
	_, err := getRaw(r, key)
	return err
}

// stillOwner checks that a link made by a person is still theirs to give:
// its maker is an owner of its organisation when it is used. A removed or
// demoted owner's invitations die with their role.
func stillOwner(r reader, l Link) error {
	if !strings.HasPrefix(l.CreatedBy, "usr_") {
		return nil // made by the operator or at first start
	}
	m, err := member(r, l.CreatedBy, l.OrgID)
	if errors.Is(err, ErrNotFound) || (err == nil && m.Role != accounts.RoleOwner) {
		return fmt.Errorf("%w: the person who made this invitation is no longer an owner; ask an owner for a new one", ErrConflict)
	}
	return err
}

func applyAcceptLink(t *txn, c *Command) error {
	a := c.AcceptLink
	var l Link
	switch err := getRecord(t.b, linkKey(a.Hash), &l); {
	case errors.Is(err, ErrNotFound):
		return ErrLinkUsed
	case err != nil:
		return err
	case !l.Usable(c.At):
		return ErrLinkUsed
	}
	if l.Email == "" {
		if a.Email == "" {
			return fmt.Errorf("%w: this link needs an email", ErrCodec)
		}
		l.Email = a.Email
	}
	if l.OrgID != "" {
		if err := exists(t.b, orgKey(l.OrgID)); err != nil {
			return fmt.Errorf("organisation %s: %w", l.OrgID, err)
		}
		if err := stillOwner(t.b, l); err != nil {
			return err
		}
	}
	var u User
	existing := true
	id, err := getRaw(t.b, userEmailKey(l.Email))
	switch {
	case err == nil:
		if err := getRecord(t.b, userKey(string(id)), &u); err != nil {
			return err
		}
	case !errors.Is(err, ErrNotFound):
		return err
	case l.Purpose == LinkReset:
		return ErrLinkUsed
	default:
		existing = false
		u = User{ID: a.NewUserID, Email: l.Email, CreatedAt: c.At}
		if err := exists(t.b, userKey(u.ID)); err == nil {
			return fmt.Errorf("%w: user %s exists", ErrConflict, u.ID)
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	// An existing account joins only with its own password (a.Current), and
	// keeps it and its sessions; a reset or a new account sets the password.
	setPassword := !existing || l.Purpose == LinkReset
	if existing && !setPassword && (a.Current == "" || a.Current != u.PasswordHash) {
		return ErrPasswordChanged
	}
	a.Session.UserID = u.ID
	if a.Session.OrgID == "" {
		a.Session.OrgID = l.OrgID
	}
	if l.OrgID == "" {
		if _, err := member(t.b, u.ID, a.Session.OrgID); err != nil {
			return err
		}
	}
	role := l.Role
	if l.OrgID != "" {
		old, err := member(t.b, u.ID, l.OrgID)
		if err == nil && old.Role == accounts.RoleOwner {
			role = accounts.RoleOwner // an invitation never demotes an owner
		} else if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	if setPassword {
		if a.Name != "" {
			u.Name = a.Name
		}
		at := c.At
		u.PasswordHash, u.PasswordChangedAt = a.PasswordHash, &at
		// Whoever held the old password, or a session started before a
		// reset, is signed out.
		if err := t.endSessions(u.ID, "", ""); err != nil {
			return err
		}
	}
	used := c.At
	l.UsedAt = &used
	t.set(linkKey(l.Hash), mustEncode(&l))
	if l.Purpose == LinkInvite {
		t.delete(append(orgInvitesPrefix(l.OrgID), l.Hash...))
	}
	t.set(userKey(u.ID), mustEncode(&u))
	t.set(userEmailKey(u.Email), []byte(u.ID))
	t.delete(throttleKey(EmailHash(u.Email)))
	if l.OrgID != "" {
		t.putMembership(Membership{UserID: u.ID, OrgID: l.OrgID, Role: role, CreatedAt: c.At})
	}
	t.putSession(a.Session)
	return t.err
}

func applySignUp(t *txn, c *Command) error {
	u, s := c.SignUp.User, c.SignUp.Session
	if err := exists(t.b, userEmailKey(u.Email)); err == nil {
		return ErrEmailTaken
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if err := exists(t.b, orgKey(s.OrgID)); err != nil {
		return fmt.Errorf("organisation %s: %w", s.OrgID, err)
	}
	n, err := owners(t.b, s.OrgID)
	if err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w: organisation %s has an owner", ErrConflict, s.OrgID)
	}
	u.CreatedAt = c.At
	t.set(userKey(u.ID), mustEncode(&u))
	t.set(userEmailKey(u.Email), []byte(u.ID))
	t.putMembership(Membership{UserID: u.ID, OrgID: s.OrgID, Role: accounts.RoleOwner, CreatedAt: c.At})
	t.putSession(s)
	return t.err
}

func applyStartSession(t *txn, c *Command) error {
	s := c.StartSession.Session
	var u User
	if err := getRecord(t.b, userKey(s.UserID), &u); err != nil {
		return err
	}
	if _, err := member(t.b, s.UserID, s.OrgID); err != nil {
		return err
	}
	if v := c.StartSession.Verified; v != "" {
		if v != u.PasswordHash {
			return ErrPasswordChanged
		}
		t.delete(throttleKey(EmailHash(u.Email)))
	}
	t.putSession(s)
	return t.err
}

// applyPasswordAttempt counts an attempt before it is checked (Throttle).
func applyPasswordAttempt(t *txn, c *Command) error {
	var th Throttle
	key := throttleKey(c.PasswordAttempt.EmailHash)
	if err := getRecord(t.b, key, &th); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	if th.Locked(c.At) {
		return ErrLocked
	}
	run, until := accounts.AfterFailure(th.Failures, th.LastFailedAt, c.At)
	th = Throttle{Failures: run, LastFailedAt: c.At}
	if !until.IsZero() {
		th.LockedUntil = &until
	}
	t.set(key, mustEncode(&th))
	return t.err
}

// applyTouchSession moves a live session's LastSeenAt; a session ended in
// the meantime stays ended.
func applyTouchSession(t *txn, c *Command) error {
	var s Session
	if err := getRecord(t.b, sessionKey(c.TouchSession.Hash), &s); err != nil {
		return err
	}
	if c.At.After(s.LastSeenAt) {
		s.LastSeenAt = c.At
		t.set(sessionKey(s.Hash), mustEncode(&s))
	}
	return t.err
}

func applyEndSessions(t *txn, c *Command) error {
	e := c.EndSessions
	if e.UserID != "" {
		return t.endSessions(e.UserID, e.OrgID, e.Keep)
	}
	for _, h := range append(e.Hashes, e.Hash) {
		if h == "" {
			continue
		}
		var s Session
		err := getRecord(t.b, sessionKey(h), &s)
		if errors.Is(err, ErrNotFound) {
			continue // ended already: ending it again changes nothing
		}
		if err != nil {
			return err
		}
		t.delete(sessionKey(s.Hash))
		t.delete(append(userSessionsPrefix(s.UserID), s.Hash...))
	}
	return t.err
}

func applySetPassword(t *txn, c *Command) error {
	var u User
	if err := getRecord(t.b, userKey(c.SetPassword.UserID), &u); err != nil {
		return err
	}
	at := c.At
	u.PasswordHash, u.PasswordChangedAt = c.SetPassword.PasswordHash, &at
	if err := t.endSessions(u.ID, "", c.SetPassword.Keep); err != nil {
		return err
	}
	t.set(userKey(u.ID), mustEncode(&u))
	t.delete(throttleKey(EmailHash(u.Email)))
	return t.err
}

// lastOwner refuses a change that takes the owner role from m when m holds
// the organisation's only one.
func lastOwner(r pebble.Reader, m Membership) error {
	if m.Role != accounts.RoleOwner {
		return nil
	}
	n, err := owners(r, m.OrgID)
	if err != nil {
		return err
	}
	if n <= 1 {
		return ErrLastOwner
	}
	return nil
}

func applySetRole(t *txn, c *Command) error {
	r := c.SetRole
	m, err := member(t.b, r.UserID, r.OrgID)
	if err != nil {
		return err
	}
	if r.Role != accounts.RoleOwner {
		if err := lastOwner(t.b, m); err != nil {
			return err
		}
	}
	m.Role = r.Role
	t.putMembership(m)
	return t.err
}

func applyRemoveMember(t *txn, c *Command) error {
	r := c.RemoveMember
	m, err := member(t.b, r.UserID, r.OrgID)
	if err != nil {
		return err
	}
	if err := lastOwner(t.b, m); err != nil {
		return err
	}
	if err := t.endSessions(r.UserID, r.OrgID, ""); err != nil {
		return err
	}
	t.delete(append(userOrgsPrefix(r.UserID), r.OrgID...))
	t.delete(append(orgMembersPrefix(r.OrgID), r.UserID...))
	return t.err
}

// applyKeyUsed moves a key's LastUsedAt forward; it never touches the
// organisation's version.
func applyKeyUsed(t *txn, c *Command) error {
	var k APIKey
	if err := getRecord(t.b, apiKeyKey(c.KeyUsed.KeyID), &k); err != nil {
		return err
	}
	if k.LastUsedAt == nil || c.At.After(*k.LastUsedAt) {
		at := c.At
		k.LastUsedAt = &at
		t.set(apiKeyKey(k.ID), mustEncode(&k))
	}
	return t.err
}

// OrgInvitations returns an organisation's invitations not yet used or
// revoked, expired ones included, oldest first.
func (s *Store) OrgInvitations(orgID string) ([]Link, error) {
	return lookupIndex(s, orgInvitesPrefix(orgID), s.Link)
}

// Throttle returns the run of password attempts on an email (zero when
// there is none).
func (s *Store) Throttle(email string) (Throttle, error) {
	var th Throttle
	err := getRecord(s.db, throttleKey(EmailHash(email)), &th)
	if errors.Is(err, ErrNotFound) {
		err = nil
	}
	return th, err
}

// User returns a person by id.
func (s *Store) User(id string) (User, error) {
	var u User
	return u, getRecord(s.db, userKey(id), &u)
}

// UserByEmail returns the person with an email (any case).
func (s *Store) UserByEmail(email string) (User, error) {
	id, err := getRaw(s.db, userEmailKey(NormalEmail(email)))
	if err != nil {
		return User{}, err
	}
	return s.User(string(id))
}

// Membership returns a person's membership of an organisation.
func (s *Store) Membership(userID, orgID string) (Membership, error) {
	var m Membership
	return m, getRecord(s.db, append(userOrgsPrefix(userID), orgID...), &m)
}

// UserMemberships returns the organisations a person belongs to.
func (s *Store) UserMemberships(userID string) ([]Membership, error) {
	p := userOrgsPrefix(userID)
	return decodeRange[Membership](s, p, prefixEnd(p), 0)
}

// OrgMembers returns an organisation's people, by user id.
func (s *Store) OrgMembers(orgID string) ([]Membership, error) {
	p := orgMembersPrefix(orgID)
	return decodeRange[Membership](s, p, prefixEnd(p), 0)
}

// Session returns a session by its hash, live or not.
func (s *Store) Session(hash string) (Session, error) {
	var rec Session
	return rec, getRecord(s.db, sessionKey(hash), &rec)
}

// UserSessions counts a person's stored sessions.
func (s *Store) UserSessions(userID string) (int, error) {
	n := 0
	return n, s.scan(userSessionsPrefix(userID), 0, func(_, _ []byte) error { n++; return nil })
}

// ExpiredSessions returns the hashes of up to limit sessions no longer live
// at now, for the janitor to delete.
func (s *Store) ExpiredSessions(now time.Time, limit int) ([]string, error) {
	var out []string
	err := s.scan([]byte("s/"), 0, func(_, v []byte) error {
		var rec Session
		if err := decode(v, &rec); err != nil {
			return err
		}
		if !rec.Live(now) {
			out = append(out, rec.Hash)
			if len(out) == limit {
				return errStop
			}
		}
		return nil
	})
	return out, err
}

// Link returns a one-time link by its hash.
func (s *Store) Link(hash string) (Link, error) {
	var l Link
	return l, getRecord(s.db, linkKey(hash), &l)
}
