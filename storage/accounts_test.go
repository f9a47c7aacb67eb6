package storage

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/platen/platen/accounts"
)

func at(c *Command, t time.Time) *Command { c.At = t; return c }

func linkCmd(hash, purpose, email, org, role string) *Command {
	return &Command{Kind: KindCreateLink, At: t0, CreateLink: &CreateLink{Link: Link{Hash: hash, Purpose: purpose,
		Email: email, OrgID: org, Role: role, CreatedAt: t0, ExpiresAt: t0.Add(LinkLifetime)}}}
}

func acceptCmd(hash, newID, sess, org string) *Command {
	return &Command{Kind: KindAcceptLink, At: t0.Add(time.Minute), AcceptLink: &AcceptLink{Hash: hash, NewUserID: newID,
		PasswordHash: "h-" + hash, Session: Session{Hash: sess, OrgID: org, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(SessionLifetime)}}}
}

func TestLinksAreSingleUseAndExpire(t *testing.T) {
	s := openTestStore(t)
	errs := applyCmds(t, s, createOrg("org_a"),
		linkCmd("l1", LinkOwner, "a@example.com", "org_a", accounts.RoleOwner),
		acceptCmd("l1", "usr_a", "s1", ""),
		acceptCmd("l1", "usr_x", "s2", ""),
		linkCmd("l2", LinkInvite, "b@example.com", "org_a", accounts.RoleMember),
		at(acceptCmd("l2", "usr_b", "s3", ""), t0.Add(LinkLifetime+time.Second)),
	)
	if errs[2] != nil {
		t.Fatalf("first use refused: %v", errs[2])
	}
	if !errors.Is(errs[3], ErrLinkUsed) || !errors.Is(errs[5], ErrLinkUsed) {
		t.Fatalf("second use %v, expired use %v: want ErrLinkUsed", errs[3], errs[5])
	}
	u, err := s.UserByEmail("A@Example.com")
	if err != nil || u.ID != "usr_a" || u.PasswordHash != "h-l1" {
		t.Fatalf("user %+v, %v", u, err)
	}
	if m, err := s.Membership("usr_a", "org_a"); err != nil || m.Role != accounts.RoleOwner {
		t.Fatalf("membership %+v, %v", m, err)
	}
	if sess, err := s.Session("s1"); err != nil || sess.UserID != "usr_a" || sess.OrgID != "org_a" {
		t.Fatalf("session %+v, %v", sess, err)
	}
	if _, err := s.Session("s2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("refused accept left a session: %v", err)
	}
}

func TestAnOrganisationKeepsAnOwner(t *testing.T) {
	s := openTestStore(t)
	errs := applyCmds(t, s, createOrg("org_a"),
		linkCmd("l1", LinkOwner, "a@example.com", "org_a", accounts.RoleOwner), acceptCmd("l1", "usr_a", "s1", ""),
		linkCmd("l2", LinkInvite, "b@example.com", "org_a", accounts.RoleMember), acceptCmd("l2", "usr_b", "s2", ""),
		&Command{Kind: KindSetRole, At: t0, SetRole: &SetRole{OrgID: "org_a", UserID: "usr_a", Role: accounts.RoleMember}},
		&Command{Kind: KindRemoveMember, At: t0, RemoveMember: &RemoveMember{OrgID: "org_a", UserID: "usr_a"}},
		&Command{Kind: KindSetRole, At: t0, SetRole: &SetRole{OrgID: "org_a", UserID: "usr_b", Role: accounts.RoleOwner}},
		&Command{Kind: KindSetRole, At: t0, SetRole: &SetRole{OrgID: "org_a", UserID: "usr_a", Role: accounts.RoleMember}},
		&Command{Kind: KindRemoveMember, At: t0, RemoveMember: &RemoveMember{OrgID: "org_a", UserID: "usr_a"}},
	)
	for i, want := range []error{nil, nil, nil, nil, nil, ErrLastOwner, ErrLastOwner, nil, nil, nil} {
		if want == nil && errs[i] != nil || want != nil && !errors.Is(errs[i], want) {
			t.Errorf("command %d: %v, want %v", i, errs[i], want)
		}
	}
	if _, err := s.Membership("usr_a", "org_a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removed member still a member: %v", err)
	}
	if _, err := s.Session("s1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removed member's session lives: %v", err)
	}
	if _, err := s.Session("s2"); err != nil {
		t.Fatalf("the remaining owner's session ended: %v", err)
	}
}

func TestResetAndPasswordChangeEndOtherSessions(t *testing.T) {
	s := openTestStore(t)
	start := func(hash string) *Command {
		return &Command{Kind: KindStartSession, At: t0, StartSession: &StartSession{Session: Session{Hash: hash, UserID: "usr_a", OrgID: "org_a"}}}
	}
	errs := applyCmds(t, s, createOrg("org_a"),
		linkCmd("l1", LinkOwner, "a@example.com", "org_a", accounts.RoleOwner), acceptCmd("l1", "usr_a", "s1", ""),
		start("s2"), start("s3"),
		&Command{Kind: KindSetPassword, At: t0, SetPassword: &SetPassword{UserID: "usr_a", PasswordHash: "new", Keep: "s2"}},
	)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	if n, _ := s.UserSessions("usr_a"); n != 1 {
		t.Fatalf("%d sessions after a password change, want the changing one", n)
	}
	errs = applyCmds(t, s, linkCmd("r1", LinkReset, "a@example.com", "", ""), acceptCmd("r1", "", "s4", "org_a"),
		linkCmd("r2", LinkReset, "nobody@example.com", "", ""), acceptCmd("r2", "usr_z", "s5", "org_a"))
	if errs[1] != nil || !errors.Is(errs[3], ErrLinkUsed) {
		t.Fatalf("reset: %v; reset of no account: %v", errs[1], errs[3])
	}
	if _, err := s.Session("s2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a reset left an old session: %v", err)
	}
	if u, _ := s.User("usr_a"); u.PasswordHash != "h-r1" {
		t.Fatalf("reset did not set the password: %q", u.PasswordHash)
	}
}

func TestPasswordAttemptsLockTheEmailUntilASuccess(t *testing.T) {
	s := openTestStore(t)
	applyCmds(t, s, createOrg("org_a"), linkCmd("l1", LinkOwner, "a@example.com", "org_a", accounts.RoleOwner), acceptCmd("l1", "usr_a", "s1", ""))
	attempt := func(email string, at time.Time) *Command {
		return &Command{Kind: KindPasswordAttempt, At: at, PasswordAttempt: &PasswordAttempt{EmailHash: EmailHash(email)}}
	}
	// Attempts are counted before they are checked: of LockAfter+2 made at
	// once, the last two are refused, for a known email and an unknown one.
	for _, email := range []string{"A@example.com", "nobody@example.com"} {
		var cmds []*Command
		for i := range accounts.LockAfter + 2 {
			cmds = append(cmds, attempt(email, t0.Add(time.Duration(i)*time.Millisecond)))
		}
		errs := applyCmds(t, s, cmds...)
		for i, err := range errs {
			if want := i >= accounts.LockAfter; errors.Is(err, ErrLocked) != want || (!want && err != nil) {
				t.Fatalf("%s, attempt %d: %v", email, i+1, err)
			}
		}
		th, _ := s.Throttle(email)
		if !th.Locked(t0.Add(accounts.LockFor-time.Second)) || th.Locked(t0.Add(accounts.LockFor+time.Second)) {
			t.Fatalf("%s: throttle %+v", email, th)
		}
	}
	// A checked password ends the run; one that changed meanwhile is refused.
	u, _ := s.User("usr_a")
	start := func(verified string) *Command {
		return &Command{Kind: KindStartSession, At: t0, StartSession: &StartSession{Verified: verified,
			Session: Session{Hash: "s-" + verified, UserID: "usr_a", OrgID: "org_a"}}}
	}
	errs := applyCmds(t, s, start("an old hash"), start(u.PasswordHash))
	if !errors.Is(errs[0], ErrPasswordChanged) || errs[1] != nil {
		t.Fatalf("start with a stale check: %v; with the current one: %v", errs[0], errs[1])
	}
	if th, _ := s.Throttle("a@example.com"); th.Failures != 0 || th.Locked(t0) {
		t.Fatalf("a success did not end the run: %+v", th)
	}
}

func TestAnInvitationNeverSetsAnExistingAccountsPassword(t *testing.T) {
	s := openTestStore(t)
	invite := func(hash, by string) *Command {
		c := linkCmd(hash, LinkInvite, "a@example.com", "org_b", accounts.RoleMember)
		c.CreateLink.Link.CreatedBy = by
		return c
	}
	applyCmds(t, s, createOrg("org_a"), createOrg("org_b"),
		linkCmd("l1", LinkOwner, "a@example.com", "org_a", accounts.RoleOwner), acceptCmd("l1", "usr_a", "s1", ""),
		linkCmd("l2", LinkOwner, "b@example.com", "org_b", accounts.RoleOwner), acceptCmd("l2", "usr_b", "s2", ""),
		invite("i1", "usr_b"), invite("i2", "usr_b"), invite("i3", "usr_a"))
	// Without the account's own password the invitation is refused.
	noProof := acceptCmd("i1", "usr_x", "s3", "")
	withProof := acceptCmd("i2", "usr_x", "s4", "")
	withProof.AcceptLink.Current = "h-l1"
	byNonOwner := acceptCmd("i3", "usr_x", "s5", "")
	byNonOwner.AcceptLink.Current = "h-l1"
	errs := applyCmds(t, s, noProof, withProof, byNonOwner)
	if !errors.Is(errs[0], ErrPasswordChanged) || errs[1] != nil || !errors.Is(errs[2], ErrConflict) {
		t.Fatalf("accept without proof: %v; with: %v; made by a non-owner of org_b: %v", errs[0], errs[1], errs[2])
	}
	if u, _ := s.User("usr_a"); u.PasswordHash != "h-l1" {
		t.Fatalf("an invitation changed the password to %q", u.PasswordHash)
	}
	if _, err := s.Session("s1"); err != nil {
		t.Fatalf("joining ended the person's other session: %v", err)
	}
	if m, err := s.Membership("usr_a", "org_b"); err != nil || m.Role != accounts.RoleMember {
		t.Fatalf("membership: %+v, %v", m, err)
	}
}

func TestExpiredSessionsAreFoundAndEnded(t *testing.T) {
	s := openTestStore(t)
	start := func(hash string, seen time.Time) *Command {
		return &Command{Kind: KindStartSession, At: t0, StartSession: &StartSession{Session: Session{Hash: hash, UserID: "usr_a", OrgID: "org_a",
			LastSeenAt: seen, ExpiresAt: t0.Add(SessionLifetime)}}}
	}
	applyCmds(t, s, createOrg("org_a"), linkCmd("l1", LinkOwner, "a@example.com", "org_a", accounts.RoleOwner), acceptCmd("l1", "usr_a", "s1", ""),
		start("idle", t0), start("fresh", t0.Add(SessionIdle)))
	now := t0.Add(SessionIdle + time.Minute)
	got, err := s.ExpiredSessions(now, 10)
	if err != nil || len(got) != 2 || !slices.Contains(got, "idle") || !slices.Contains(got, "s1") {
		t.Fatalf("expired at %v: %v, %v; want idle and s1", now, got, err)
	}
	applyCmds(t, s, &Command{Kind: KindEndSessions, At: now, EndSessions: &EndSessions{Hashes: got}})
	if n, _ := s.UserSessions("usr_a"); n != 1 {
		t.Fatalf("%d sessions left, want the fresh one", n)
	}
	if _, err := s.Session("fresh"); err != nil {
		t.Fatal(err)
	}
}
