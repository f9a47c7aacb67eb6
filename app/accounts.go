package app

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/platen/platen/accounts"
	"github.com/platen/platen/actors"
	"github.com/platen/platen/auth"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/storage"
)

// The console's people: sign-in, sessions, one-time links, roles
// (docs/design.md "Accounts and the dashboard"). The rules that span records
// (a link is used once, an organisation keeps an owner) are checked where the
// commands are applied, in storage/accounts.go; the sign-in throttle is
// accounts.AfterFailure. These functions decide ids, hash secrets and propose.

// ErrBadCredentials is a sign-in whose email or password is wrong. It does
// not say which, so it does not tell whether an account exists.
var ErrBadCredentials = errors.New("the email or the password is wrong")

// ErrSignInLocked is a sign-in to an account locked by repeated failures.
var ErrSignInLocked = errors.New("too many failed sign-ins: this account is locked for a while")

// ErrSignUpClosed is a sign-up on a node that does not allow open sign-up.
var ErrSignUpClosed = errors.New("this service does not allow signing up; ask an owner or the operator for an invitation")

// Principal is who a console request acts for: a live session, its person
// and their role in the session's organisation.
type Principal struct {
	Session storage.Session
	User    storage.User
	Org     storage.Org
	Role    string
}

// Scopes are what the principal may do through the API's routes.
func (p Principal) Scopes() []string { return auth.RoleScopes(p.Role) }

// Owner reports whether the principal may manage keys, webhooks and people.
func (p Principal) Owner() bool { return p.Role == accounts.RoleOwner }

// Started is a session just started: Token goes in the person's cookie and
// is never stored.
type Started struct {
	Token   string
	Session storage.Session
}

// sessionPrefix starts a session token; linkPrefix a one-time link's.
const (
	sessionPrefix = "pls_"
	linkPrefix    = "pll_"
)

func (a *App) propose(c *storage.Command) error {
	if a.deps.Propose == nil {
		return fmt.Errorf("%w: this node cannot change people", fault.ErrUnavailable)
	}
	return a.deps.Propose(c)
}

func (a *App) newSession(userID, orgID string, now time.Time) Started {
	token := auth.NewSecret(sessionPrefix)
	return Started{Token: token, Session: storage.Session{Hash: auth.Hash(token), UserID: userID, OrgID: orgID,
		CSRF: auth.NewSecret(""), CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(storage.SessionLifetime)}}
}

// user finds a person by email, catching up with the leader once when this
// node does not know them yet.
func (a *App) user(email string) (storage.User, error) {
	var u storage.User
	err := a.fresh(func() (err error) { u, err = a.deps.Store.UserByEmail(email); return err })
	return u, err
}

// attempt counts a password attempt on email before it is checked, and
// waits as the throttle says (accounts.SignInDelay). It answers
// ErrSignInLocked, with how long in a fault.RetryAfter, while the email is
// locked; else, for the caller to use when the check fails, whether this
// failure locks it.
func (a *App) attempt(email string, now time.Time) (locks bool, err error) {
	th, err := a.deps.Store.Throttle(email)
	if err != nil {
		return false, err
	}
	locked := func() error {
		wait := accounts.LockFor
		if th, err := a.deps.Store.Throttle(email); err == nil && th.Locked(now) {
			wait = th.LockedUntil.Sub(now)
		}
		return fault.Retry(ErrSignInLocked, int(wait.Seconds())+1)
	}
	if th.Locked(now) {
		return false, locked()
	}
	err = a.propose(&storage.Command{Kind: storage.KindPasswordAttempt, At: now, PasswordAttempt: &storage.PasswordAttempt{EmailHash: storage.EmailHash(email)}})
	if errors.Is(err, storage.ErrLocked) {
		return false, locked()
	}
	if err != nil {
		return false, err
	}
	time.Sleep(accounts.SignInDelay(th.Failures, th.LastFailedAt, now))
	_, until := accounts.AfterFailure(th.Failures, th.LastFailedAt, now)
	return !until.IsZero(), nil
}

// badPassword is the refusal of a failed password check: the lock when this
// failure locked the email, else err.
func badPassword(locks bool, err error) error {
	if locks {
		return fault.Retry(ErrSignInLocked, int(accounts.LockFor.Seconds()))
	}
	return err
}

// SignIn checks an email and password and starts a session in the person's
// first organisation, or in orgID when given. Each attempt is counted on the
// email, known or not, before the password is checked (a.attempt): after
// accounts.SlowAfter failures each attempt waits, after accounts.LockAfter
// the email is locked (ErrSignInLocked, with how long in a
// fault.RetryAfter), however many attempts are made at once and on however
// many nodes.
func (a *App) SignIn(email, password, orgID string) (Started, error) {
	now := a.deps.Clock.Now()
	email = storage.NormalEmail(email)
	locks, err := a.attempt(email, now)
	if err != nil {
		return Started{}, err
	}
	u, err := a.user(email)
	if errors.Is(err, storage.ErrNotFound) {
		auth.VerifyPassword("", password) // the same work as a real check
		return Started{}, badPassword(locks, ErrBadCredentials)
	}
	if err != nil {
		return Started{}, err
	}
	if !auth.VerifyPassword(u.PasswordHash, password) {
		return Started{}, badPassword(locks, ErrBadCredentials)
	}
	ms, err := a.deps.Store.UserMemberships(u.ID)
	if err != nil {
		return Started{}, err
	}
	if len(ms) == 0 {
		return Started{}, fmt.Errorf("%w: %s belongs to no organisation any more", fault.ErrForbidden, u.Email)
	}
	org := ms[0].OrgID
	if orgID != "" {
		if _, err := a.deps.Store.Membership(u.ID, orgID); err != nil {
			return Started{}, fmt.Errorf("%w: organisation %q", fault.ErrNotFound, orgID)
		}
		org = orgID
	}
	s := a.newSession(u.ID, org, now)
	err = a.propose(&storage.Command{Kind: storage.KindStartSession, At: now, StartSession: &storage.StartSession{Session: s.Session, Verified: u.PasswordHash}})
	return s, err
}

// Session resolves a session token to its principal. An ended, expired or
// unknown session, or one whose person left the organisation, answers
// errUnauthenticated-like fault.ErrUnauthenticated. A session not used for
// storage.SessionTouchEvery is touched, in the background.
func (a *App) Session(token string) (Principal, error) {
	if !strings.HasPrefix(token, sessionPrefix) {
		return Principal{}, fault.ErrUnauthenticated
	}
	hash := auth.Hash(token)
	var s storage.Session
	err := a.fresh(func() (err error) { s, err = a.deps.Store.Session(hash); return err })
	now := a.deps.Clock.Now()
	if errors.Is(err, storage.ErrNotFound) || (err == nil && !s.Live(now)) {
		return Principal{}, fault.ErrUnauthenticated
	}
	if err != nil {
		return Principal{}, err
	}
	m, err := a.deps.Store.Membership(s.UserID, s.OrgID)
	if errors.Is(err, storage.ErrNotFound) {
		return Principal{}, fault.ErrUnauthenticated
	}
	if err != nil {
		return Principal{}, err
	}
	u, err := a.deps.Store.User(s.UserID)
	if err != nil {
		return Principal{}, err
	}
	org, err := a.deps.Store.Org(s.OrgID)
	if err != nil {
		return Principal{}, err
	}
	if now.Sub(s.LastSeenAt) > storage.SessionTouchEvery {
		if last, ok := a.touched.Load(hash); !ok || now.Sub(last.(time.Time)) > storage.SessionTouchEvery {
			a.touched.Store(hash, now)
			go a.propose(&storage.Command{Kind: storage.KindTouchSession, At: now, TouchSession: &storage.TouchSession{Hash: hash}})
		}
	}
	return Principal{Session: s, User: u, Org: org, Role: m.Role}, nil
}

// SignOut ends the principal's session; everywhere ends all of the person's
// sessions, on every device.
func (a *App) SignOut(p Principal, everywhere bool) error {
	end := &storage.EndSessions{Hash: p.Session.Hash}
	if everywhere {
		end = &storage.EndSessions{UserID: p.User.ID}
	}
	a.touched.Delete(p.Session.Hash)
	return a.propose(&storage.Command{Kind: storage.KindEndSessions, At: a.deps.Clock.Now(), EndSessions: end})
}

// SwitchOrg starts a session in another of the person's organisations and
// ends the current one.
func (a *App) SwitchOrg(p Principal, orgID string) (Started, error) {
	if _, err := a.deps.Store.Membership(p.User.ID, orgID); err != nil {
		return Started{}, fmt.Errorf("%w: organisation %q", fault.ErrNotFound, orgID)
	}
	now := a.deps.Clock.Now()
	s := a.newSession(p.User.ID, orgID, now)
	if err := a.propose(&storage.Command{Kind: storage.KindStartSession, At: now, StartSession: &storage.StartSession{Session: s.Session}}); err != nil {
		return Started{}, err
	}
	return s, a.SignOut(p, false)
}

// Invitation asks for a one-time link.
type Invitation struct {
	// Email is whom the link is for.
	Email string
	// OrgID and Role make the holder a member (owner and invite links).
	OrgID, Role string
	// Purpose is storage.LinkOwner, LinkInvite or LinkReset.
	Purpose string
	// By is who asked: a user id, or "operator".
	By string
}

// NewLink is a one-time link just made. Token is shown once, in a URL
// (`<base>/link#<token>`), and stored only as its hash.
type NewLink struct {
	Token     string
	Link      storage.Link
	OrgName   string
	ExpiresAt time.Time
}

func checkEmail(email string) (string, error) {
	e := storage.NormalEmail(email)
	if a, err := mail.ParseAddress(e); err != nil || a.Address != e || !strings.Contains(e, "@") {
		return "", fault.Invalid("email", "must be an email address such as ada@example.com")
	}
	return e, nil
}

// Invite makes a one-time link: an invitation to an organisation (operator
// or owner), the first owner's link, or a password reset (operator).
func (a *App) Invite(in Invitation) (NewLink, error) {
	email, err := checkEmail(in.Email)
	if err != nil {
		return NewLink{}, err
	}
	var org storage.Org
	switch in.Purpose {
	case storage.LinkOwner, storage.LinkInvite:
		if !accounts.KnownRole(in.Role) {
			return NewLink{}, fault.Invalid("role", "must be owner or member")
		}
		if err := a.fresh(func() (err error) { org, err = a.deps.Store.Org(in.OrgID); return err }); err != nil {
			return NewLink{}, fmt.Errorf("%w: organisation %q", fault.ErrNotFound, in.OrgID)
		}
	case storage.LinkReset:
		in.OrgID, in.Role = "", ""
		if _, err := a.user(email); err != nil {
			return NewLink{}, fmt.Errorf("%w: no account has the email %s", fault.ErrNotFound, email)
		}
	default:
		return NewLink{}, fault.Invalid("purpose", "must be owner, invite or reset")
	}
	nl, err := makeLink(a.propose, storage.Link{Purpose: in.Purpose, Email: email, OrgID: in.OrgID, Role: in.Role, CreatedBy: in.By}, a.deps.Clock.Now())
	nl.OrgName = org.Name
	return nl, err
}

// makeLink stores l as a new one-time link with a fresh token.
func makeLink(propose func(*storage.Command) error, l storage.Link, now time.Time) (NewLink, error) {
	token := auth.NewSecret(linkPrefix)
	l.Hash, l.CreatedAt, l.ExpiresAt = auth.Hash(token), now, now.Add(storage.LinkLifetime)
	if err := propose(&storage.Command{Kind: storage.KindCreateLink, At: now, CreateLink: &storage.CreateLink{Link: l}}); err != nil {
		return NewLink{}, err
	}
	return NewLink{Token: token, Link: l, ExpiresAt: l.ExpiresAt}, nil
}

// FirstOwnerLink makes the one-time link that makes the first owner of a
// node's first organisation; its holder gives their email. The node prints
// it at the first start of an empty data folder, before the use cases run.
func FirstOwnerLink(propose func(*storage.Command) error, orgID string, now time.Time) (NewLink, error) {
	return makeLink(propose, storage.Link{Purpose: storage.LinkOwner, OrgID: orgID, Role: accounts.RoleOwner, CreatedBy: "first start"}, now)
}

// LinkInfo is what a one-time link's page shows before it is used.
type LinkInfo struct {
	Purpose   string
	Email     string
	OrgName   string
	Role      string
	HasUser   bool
	ExpiresAt time.Time
}

func (a *App) link(token string) (storage.Link, error) {
	var l storage.Link
	err := fault.ErrNotFound
	if strings.HasPrefix(token, linkPrefix) {
		err = a.fresh(func() (err error) { l, err = a.deps.Store.Link(auth.Hash(token)); return err })
	}
	if errors.Is(err, fault.ErrNotFound) || (err == nil && !l.Usable(a.deps.Clock.Now())) {
		return l, storage.ErrLinkUsed
	}
	return l, err
}

// Link describes a usable one-time link, or answers storage.ErrLinkUsed.
func (a *App) Link(token string) (LinkInfo, error) {
	l, err := a.link(token)
	if err != nil {
		return LinkInfo{}, err
	}
	info := LinkInfo{Purpose: l.Purpose, Email: l.Email, Role: l.Role, ExpiresAt: l.ExpiresAt}
	if l.OrgID != "" {
		if org, err := a.deps.Store.Org(l.OrgID); err == nil {
			info.OrgName = org.Name
		}
	}
	_, err = a.deps.Store.UserByEmail(l.Email)
	info.HasUser = err == nil
	return info, nil
}

// AcceptLink uses a one-time link and signs its holder in. For an email
// with no account it makes one with the password given; for an existing
// account, password must be that account's own (checked and counted like a
// sign-in) and is left as it is: an invitation only adds the membership, so
// whoever makes one cannot take the account. A reset sets the password and
// signs the person out everywhere first.
func (a *App) AcceptLink(token, email, password, name string) (Started, error) {
	if msg := auth.CheckPassword(password); msg != "" {
		return Started{}, fault.Invalid("password", "%s", msg)
	}
	if len(name) > 200 {
		return Started{}, fault.Invalid("name", "must be at most 200 characters")
	}
	l, err := a.link(token)
	if err != nil {
		return Started{}, err
	}
	owner := l.Email // whose account the link is for
	if l.Email == "" {
		if email, err = checkEmail(email); err != nil {
			return Started{}, err
		}
		owner = email
	} else {
		email = ""
	}
	now := a.deps.Clock.Now()
	var current string
	if l.Purpose != storage.LinkReset {
		if u, err := a.user(owner); err == nil {
			locks, err := a.attempt(owner, now)
			if err != nil {
				return Started{}, err
			}
			if !auth.VerifyPassword(u.PasswordHash, password) {
				return Started{}, badPassword(locks, fault.Invalid("password", "is not the password of the account %s: an invitation adds the organisation to it, signed in with its own password", owner))
			}
			current = u.PasswordHash
		} else if !errors.Is(err, storage.ErrNotFound) {
			return Started{}, err
		}
	}
	orgID := l.OrgID
	if orgID == "" {
		u, err := a.user(l.Email)
		if err != nil {
			return Started{}, storage.ErrLinkUsed
		}
		ms, err := a.deps.Store.UserMemberships(u.ID)
		if err != nil || len(ms) == 0 {
			return Started{}, fmt.Errorf("%w: %s belongs to no organisation", fault.ErrForbidden, l.Email)
		}
		orgID = ms[0].OrgID
	}
	s := a.newSession("", orgID, now)
	err = a.propose(&storage.Command{Kind: storage.KindAcceptLink, At: now, AcceptLink: &storage.AcceptLink{
		Hash: l.Hash, Email: email, Current: current, NewUserID: ids.New(ids.User, now), Name: strings.TrimSpace(name),
		PasswordHash: auth.HashPassword(password), Session: s.Session}})
	if err != nil {
		return Started{}, err
	}
	stored, err := a.deps.Store.Session(s.Session.Hash)
	if err == nil {
		s.Session = stored
	}
	return s, nil
}

// ChangePassword sets a new password after checking the current one, and
// signs the person out everywhere else.
func (a *App) ChangePassword(p Principal, current, next string) error {
	if msg := auth.CheckPassword(next); msg != "" {
		return fault.Invalid("password", "%s", msg)
	}
	// Counted like a sign-in: a session left open is not a way to guess
	// the password at the session's rate.
	locks, err := a.attempt(p.User.Email, a.deps.Clock.Now())
	if err != nil {
		return err
	}
	if !auth.VerifyPassword(p.User.PasswordHash, current) {
		return badPassword(locks, fault.Invalid("current", "is not your current password"))
	}
	return a.propose(&storage.Command{Kind: storage.KindSetPassword, At: a.deps.Clock.Now(), SetPassword: &storage.SetPassword{
		UserID: p.User.ID, PasswordHash: auth.HashPassword(next), Keep: p.Session.Hash}})
}

// SignUp makes a sandbox organisation for a person signing up on their own,
// with them as its owner, and signs them in. Only when the node allows it.
func (a *App) SignUp(email, password, orgName string) (Started, error) {
	if !a.deps.OpenSignUp {
		return Started{}, ErrSignUpClosed
	}
	e, err := checkEmail(email)
	if err != nil {
		return Started{}, err
	}
	if msg := auth.CheckPassword(password); msg != "" {
		return Started{}, fault.Invalid("password", "%s", msg)
	}
	if _, err := a.user(e); err == nil {
		return Started{}, storage.ErrEmailTaken
	}
	orgName = strings.TrimSpace(orgName)
	if orgName == "" {
		orgName = e
	}
	now := a.deps.Clock.Now()
	orgID := ids.New(ids.Org, now)
	if _, err := actors.Ask(a.deps.Actors, orgID, actors.CreateOrg{Name: orgName, Plan: storage.PlanSandbox}); err != nil {
		return Started{}, err
	}
	u := storage.User{ID: ids.New(ids.User, now), Email: e, PasswordHash: auth.HashPassword(password)}
	s := a.newSession(u.ID, orgID, now)
	err = a.propose(&storage.Command{Kind: storage.KindSignUp, At: now, SignUp: &storage.SignUp{User: u, Session: s.Session}})
	return s, err
}

// Member is a person of an organisation as the console lists them.
type Member struct {
	UserID    string
	Email     string
	Name      string
	Role      string
	CreatedAt time.Time
}

// Members lists an organisation's people.
func (a *App) Members(orgID string) ([]Member, error) {
	ms, err := a.deps.Store.OrgMembers(orgID)
	if err != nil {
		return nil, err
	}
	out := make([]Member, 0, len(ms))
	for _, m := range ms {
		u, err := a.deps.Store.User(m.UserID)
		if err != nil {
			return nil, err
		}
		out = append(out, Member{UserID: u.ID, Email: u.Email, Name: u.Name, Role: m.Role, CreatedAt: m.CreatedAt})
	}
	return out, nil
}

// SetRole changes a person's role in the principal's organisation.
func (a *App) SetRole(orgID, userID, role string) error {
	if !accounts.KnownRole(role) {
		return fault.Invalid("role", "must be owner or member")
	}
	if _, err := a.deps.Store.Membership(userID, orgID); err != nil {
		return fmt.Errorf("%w: member %q", fault.ErrNotFound, userID)
	}
	return a.propose(&storage.Command{Kind: storage.KindSetRole, At: a.deps.Clock.Now(), SetRole: &storage.SetRole{OrgID: orgID, UserID: userID, Role: role}})
}

// RemoveMember takes a person out of an organisation and ends their
// sessions in it.
func (a *App) RemoveMember(orgID, userID string) error {
	if _, err := a.deps.Store.Membership(userID, orgID); err != nil {
		return fmt.Errorf("%w: member %q", fault.ErrNotFound, userID)
	}
	return a.propose(&storage.Command{Kind: storage.KindRemoveMember, At: a.deps.Clock.Now(), RemoveMember: &storage.RemoveMember{OrgID: orgID, UserID: userID}})
}

// keyUseEvery is how often a key's last use is recorded: "last used"
// to within minutes, at one raft entry per key per interval.
const keyUseEvery = 5 * time.Minute

// KeyUsed records, in the background and at most every keyUseEvery, that a
// key authenticated a request.
func (a *App) KeyUsed(k storage.APIKey) {
	now := a.deps.Clock.Now()
	if k.LastUsedAt != nil && now.Sub(*k.LastUsedAt) < keyUseEvery {
		return
	}
	if last, ok := a.keyUses.Load(k.ID); ok && now.Sub(last.(time.Time)) < keyUseEvery {
		return
	}
	a.keyUses.Store(k.ID, now)
	go a.propose(&storage.Command{Kind: storage.KindKeyUsed, At: now, KeyUsed: &storage.KeyUsed{KeyID: k.ID}})
}

// OpenSignUp reports whether this node lets anyone sign up.
func (a *App) OpenSignUp() bool { return a.deps.OpenSignUp }

// WalletCurrency is the ISO 4217 code of wallets, prices and charges.
func (a *App) WalletCurrency() string {
	if a.deps.WalletCurrency == "" {
		return "EUR"
	}
	return a.deps.WalletCurrency
}

// EndExpiredSessions deletes up to limit sessions that are no longer live at
// now (idle or past their lifetime), in one command, and says how many. The
// node's janitor calls it; an expired session already signs nobody in, this
// only keeps the state from growing.
func (a *App) EndExpiredSessions(now time.Time, limit int) (int, error) {
	// The caches of recent uses forget what is older than they matter for.
	a.touched.Range(func(k, v any) bool {
		if now.Sub(v.(time.Time)) > storage.SessionTouchEvery {
			a.touched.Delete(k)
		}
		return true
	})
	a.keyUses.Range(func(k, v any) bool {
		if now.Sub(v.(time.Time)) > keyUseEvery {
			a.keyUses.Delete(k)
		}
		return true
	})
	hashes, err := a.deps.Store.ExpiredSessions(now, limit)
	if err != nil || len(hashes) == 0 {
		return 0, err
	}
	err = a.propose(&storage.Command{Kind: storage.KindEndSessions, At: now, EndSessions: &storage.EndSessions{Hashes: hashes}})
	return len(hashes), err
}

// Invitations lists an organisation's invitations that may still be used,
// soonest to expire first; their tokens are not among what is stored.
func (a *App) Invitations(orgID string) ([]storage.Link, error) {
	all, err := a.deps.Store.OrgInvitations(orgID)
	if err != nil {
		return nil, err
	}
	now := a.deps.Clock.Now()
	out := all[:0]
	for _, l := range all {
		if l.Usable(now) {
			out = append(out, l)
		}
	}
	return out, nil
}

// RevokeInvitation takes back an organisation's unused invitation, named by
// the hash of its token (the id the list gives).
func (a *App) RevokeInvitation(orgID, id string) error {
	err := a.propose(&storage.Command{Kind: storage.KindRevokeLink, At: a.deps.Clock.Now(), RevokeLink: &storage.RevokeLink{Hash: id, OrgID: orgID}})
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%w: invitation %q", fault.ErrNotFound, id)
	}
	return err
}
