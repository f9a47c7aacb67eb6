package transport

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/platen/platen/accounts"
	"github.com/platen/platen/app"
	"github.com/platen/platen/auth"
	"github.com/platen/platen/console"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// The console's side of the HTTP surface (docs/console.md): its pages and
// assets, the session cookie, CSRF, and the routes only people use. Every
// other thing the console does goes through the /v1 routes, authenticated by
// the session in authenticateSession.

// sessionCookie holds a console session's token.
const sessionCookie = "platen_session"

// csrfHeader carries the session's CSRF token on every state-changing
// request of the console.
const csrfHeader = "X-CSRF-Token"

// errCSRF is a state-changing console request without its session's CSRF
// token, or from another site.
var errCSRF = errors.New("this request did not come from the console: its CSRF token or origin is missing or wrong; reload the page")

// errSessionEnded is a session cookie that no longer signs anyone in.
var errSessionEnded = fmt.Errorf("%w: your session has ended; sign in again", errUnauthenticated)

// safeMethod reports whether a method changes nothing.
func safeMethod(m []byte) bool { return string(m) == http.MethodGet || string(m) == http.MethodHead }

// sameOrigin reports whether the request's Origin (or, without one, its
// Referer) names this node: the host the browser addressed, or the base
// URL's. An absent Origin and Referer is refused: browsers send Origin with
// every POST, PATCH and DELETE a page makes.
func (s *Server) sameOrigin(r *request) bool {
	o := string(r.Request.Header.Peek("Origin"))
	if o == "" {
		o = string(r.Request.Header.Referer())
	}
	u, err := url.Parse(o)
	if o == "" || o == "null" || err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, string(r.Host())) {
		return true
	}
	base, err := url.Parse(s.cfg.BaseURL)
	return err == nil && base.Host != "" && strings.EqualFold(u.Host, base.Host)
}

// authenticateSession authenticates a request by its console session: it
// acts as a key of the organisation holding the role's scopes
// (auth.RoleScopes), recorded under the person's id. A state-changing
// request must also carry the session's CSRF token and come from this site.
func (s *Server) authenticateSession(r *request, token string) error {
	p, err := s.app.Session(token)
	if errors.Is(err, fault.ErrUnauthenticated) {
		clearSessionCookie(r, s.secureCookies())
		return errSessionEnded
	}
	if err != nil {
		return err
	}
	if !safeMethod(r.Method()) || r.route.Path == "/v1/realtime" {
		if !s.sameOrigin(r) {
			return fmt.Errorf("%w: %w", errForbidden, errCSRF)
		}
	}
	if !safeMethod(r.Method()) && !auth.Equal(string(r.Request.Header.Peek(csrfHeader)), p.Session.CSRF) {
		return fmt.Errorf("%w: %w", errForbidden, errCSRF)
	}
	r.principal = &p
	r.key = storage.APIKey{ID: p.User.ID, OrgID: p.Org.ID, Name: p.User.Email, Scopes: p.Scopes()}
	r.org = p.Org
	if wait := s.limits.allow(p.User.ID); wait > 0 {
		return fault.Retry(fmt.Errorf("%w: slow down", errRateLimited), int(wait.Seconds())+1)
	}
	if need := r.route.Scope; need != "" && !auth.Grants(r.key.Scopes, need) {
		return fmt.Errorf("%w: your role (%s) does not allow this: it needs %s", errForbidden, p.Role, auth.Label(string(need)))
	}
	if r.route.Owner && !p.Owner() {
		return fmt.Errorf("%w: only an owner of %s may do this", errForbidden, p.Org.Name)
	}
	return nil
}

// authenticatePerson authenticates a console-only route: a session, never a
// key.
func (s *Server) authenticatePerson(r *request) error {
	if _, given := bearer(r); given {
		return fmt.Errorf("%w: this route belongs to the console and takes a session, not a key", errForbidden)
	}
	c := r.Request.Header.Cookie(sessionCookie)
	if len(c) == 0 {
		return fmt.Errorf("%w: sign in to the console first", errUnauthenticated)
	}
	return s.authenticateSession(r, string(c))
}

// checkAnonymousPost guards the console's routes taken before a session
// exists (sign-in, sign-up, links): they must come from this site.
func (s *Server) checkAnonymousPost(r *request) error {
	if !s.sameOrigin(r) || !bytes.HasPrefix(r.Request.Header.ContentType(), []byte("application/json")) {
		return fmt.Errorf("%w: %w", errForbidden, errCSRF)
	}
	return nil
}

func (s *Server) secureCookies() bool { return strings.HasPrefix(s.cfg.BaseURL, "https://") }

func setSessionCookie(r *request, token string, secure bool) {
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(sessionCookie)
	c.SetValue(token)
	c.SetPath("/")
	c.SetHTTPOnly(true)
	c.SetSecure(secure)
	c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
	c.SetMaxAge(int(storage.SessionLifetime.Seconds()))
	r.Response.Header.SetCookie(c)
}

func clearSessionCookie(r *request, secure bool) {
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(sessionCookie)
	c.SetValue("")
	c.SetPath("/")
	c.SetHTTPOnly(true)
	c.SetSecure(secure)
	c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
	c.SetExpire(fasthttp.CookieExpireDelete)
	r.Response.Header.SetCookie(c)
}

// servePage answers a page path with the application's shell, and an asset
// path with the asset. Pages are never cached (the shell is small and names
// the current assets); assets revalidate by ETag.
func (s *Server) servePage(r *request, path string) bool {
	var a console.Asset
	switch name, isAsset := strings.CutPrefix(path, "/assets/"); {
	case isAsset:
		var ok bool
		if a, ok = console.Lookup(name); !ok {
			return false
		}
	case console.IsPage(path):
		a = console.Shell()
	default:
		return false
	}
	h := &r.Response.Header
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "+
		"frame-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	// The gzipped body is another representation: its own ETag (the same
	// with -gz), so no cache hands it to a browser that did not ask for it.
	gz := a.Gzip != nil && acceptsGzip(r.Request.Header.Peek("Accept-Encoding"))
	etag := a.ETag
	if gz {
		etag = strings.TrimSuffix(a.ETag, `"`) + `-gz"`
	}
	h.Set("ETag", etag)
	h.Set("Vary", "Accept-Encoding")
	if string(r.Request.Header.Peek("If-None-Match")) == etag {
		r.SetStatusCode(http.StatusNotModified)
		return true
	}
	r.SetStatusCode(http.StatusOK)
	r.SetContentType(a.ContentType)
	body := a.Body
	if gz {
		h.Set("Content-Encoding", "gzip")
		body = a.Gzip
	}
	if string(r.Method()) != http.MethodHead {
		r.SetBody(body)
	}
	return true
}

// meView is who is signed in, what they may do and their CSRF token.
type meView struct {
	User          userView      `json:"user"`
	Organisation  orgRef        `json:"organisation"`
	Role          string        `json:"role"`
	Scopes        []string      `json:"scopes"`
	CSRF          string        `json:"csrf"`
	Organisations []orgRef      `json:"organisations"`
	SessionEnds   time.Time     `json:"sessionEnds"`
	Config        consoleConfig `json:"config"`
}

type userView struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

type orgRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Plan string `json:"plan,omitempty"`
	Role string `json:"role,omitempty"`
}

// consoleConfig is what the sign-in page needs to know about the node.
type consoleConfig struct {
	SignUp bool `json:"signUp"`
	// WebhooksPrivate says this node lets webhooks reach loopback and
	// private addresses (a development node, serve --dev).
	WebhooksPrivate bool `json:"webhooksPrivate"`
	// Currency is the ISO 4217 code money is shown in.
	Currency string `json:"currency"`
}

func (s *Server) me(p app.Principal) (meView, error) {
	v := meView{User: userView{ID: p.User.ID, Email: p.User.Email, Name: p.User.Name},
		Organisation: orgRef{ID: p.Org.ID, Name: p.Org.Name, Plan: p.Org.Plan}, Role: p.Role, Scopes: p.Scopes(),
		CSRF: p.Session.CSRF, SessionEnds: p.Session.ExpiresAt, Config: consoleConfig{SignUp: s.app.OpenSignUp(), WebhooksPrivate: s.app.WebhooksPrivate(), Currency: s.app.WalletCurrency()}}
	ms, err := s.deps.Store.UserMemberships(p.User.ID)
	if err != nil {
		return v, err
	}
	for _, m := range ms {
		o, err := s.deps.Store.Org(m.OrgID)
		if err != nil {
			continue
		}
		v.Organisations = append(v.Organisations, orgRef{ID: o.ID, Name: o.Name, Plan: o.Plan, Role: m.Role})
	}
	return v, nil
}

// signedIn sets the cookie of a session just started and answers who it is.
func (s *Server) signedIn(r *request, st app.Started, status int) error {
	p, err := s.app.Session(st.Token)
	if err != nil {
		return err
	}
	setSessionCookie(r, st.Token, s.secureCookies())
	r.Response.Header.Set("Cache-Control", "no-store") // it carries the CSRF token
	v, err := s.me(p)
	if err != nil {
		return err
	}
	return r.ok(status, v, "signed in")
}

func (s *Server) consoleConfig(r *request) error {
	return r.ok(http.StatusOK, consoleConfig{SignUp: s.app.OpenSignUp(), WebhooksPrivate: s.app.WebhooksPrivate(), Currency: s.app.WalletCurrency()}, "")
}

func (s *Server) signIn(r *request) error {
	if err := s.checkAnonymousPost(r); err != nil {
		return err
	}
	var in struct {
		Email          string `json:"email"`
		Password       string `json:"password"`
		OrganisationID string `json:"organisationId"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	st, err := s.app.SignIn(in.Email, in.Password, in.OrganisationID)
	if err != nil {
		return err
	}
	return s.signedIn(r, st, http.StatusOK)
}

func (s *Server) signUp(r *request) error {
	if err := s.checkAnonymousPost(r); err != nil {
		return err
	}
	var in struct {
		Email        string `json:"email"`
		Password     string `json:"password"`
		Organisation string `json:"organisation"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	st, err := s.app.SignUp(in.Email, in.Password, in.Organisation)
	if err != nil {
		return err
	}
	return s.signedIn(r, st, http.StatusCreated)
}

// linkView is a one-time link before it is used.
type linkView struct {
	Purpose      string    `json:"purpose"`
	Email        string    `json:"email"`
	Organisation string    `json:"organisation,omitempty"`
	Role         string    `json:"role,omitempty"`
	HasAccount   bool      `json:"hasAccount"`
	ExpiresAt    time.Time `json:"expiresAt"`
}

// The link's token travels in the body, never in a URL: links carry it after
// '#', which browsers keep out of requests, logs and Referer headers.
func (s *Server) lookupLink(r *request) error {
	if err := s.checkAnonymousPost(r); err != nil {
		return err
	}
	var in struct {
		Token string `json:"token"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	l, err := s.app.Link(in.Token)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, linkView{Purpose: l.Purpose, Email: l.Email, Organisation: l.OrgName, Role: l.Role,
		HasAccount: l.HasUser, ExpiresAt: l.ExpiresAt}, "")
}

func (s *Server) acceptLink(r *request) error {
	if err := s.checkAnonymousPost(r); err != nil {
		return err
	}
	var in struct {
		Token    string `json:"token"`
		Email    string `json:"email"`
		Password string `json:"password"`
		Name     string `json:"name"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	st, err := s.app.AcceptLink(in.Token, in.Email, in.Password, in.Name)
	if err != nil {
		return err
	}
	return s.signedIn(r, st, http.StatusOK)
}

func (s *Server) getMe(r *request) error {
	r.Response.Header.Set("Cache-Control", "no-store") // it carries the CSRF token
	v, err := s.me(*r.principal)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, v, "")
}

func (s *Server) signOut(r *request) error {
	var in struct {
		Everywhere bool `json:"everywhere"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	if err := s.app.SignOut(*r.principal, in.Everywhere); err != nil {
		return err
	}
	clearSessionCookie(r, s.secureCookies())
	msg := "signed out"
	if in.Everywhere {
		msg = "signed out everywhere"
	}
	return r.ok(http.StatusOK, map[string]any{}, msg)
}

func (s *Server) switchOrg(r *request) error {
	var in struct {
		OrganisationID string `json:"organisationId"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	st, err := s.app.SwitchOrg(*r.principal, in.OrganisationID)
	if err != nil {
		return err
	}
	return s.signedIn(r, st, http.StatusOK)
}

func (s *Server) changePassword(r *request) error {
	var in struct {
		Current  string `json:"current"`
		Password string `json:"password"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	if err := s.app.ChangePassword(*r.principal, in.Current, in.Password); err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{}, "password changed; every other session is signed out")
}

func (s *Server) consoleKeys(r *request) error {
	items, err := s.orgKeys(r)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"items": items, "scopes": auth.Scopes}, fmt.Sprintf("%d keys", len(items)))
}

// memberView is a person of the organisation.
type memberView struct {
	UserID string    `json:"userId"`
	Email  string    `json:"email"`
	Name   string    `json:"name"`
	Role   string    `json:"role"`
	Since  time.Time `json:"since"`
	You    bool      `json:"you"`
}

func (s *Server) consoleMembers(r *request) error {
	ms, err := s.app.Members(r.org.ID)
	if err != nil {
		return err
	}
	out := make([]memberView, len(ms))
	for i, m := range ms {
		out[i] = memberView{UserID: m.UserID, Email: m.Email, Name: m.Name, Role: m.Role, Since: m.CreatedAt, You: m.UserID == r.principal.User.ID}
	}
	return r.ok(http.StatusOK, map[string]any{"items": out}, fmt.Sprintf("%d people", len(out)))
}

// inviteView is a one-time link just made: the link is shown once.
type inviteView struct {
	Link      string    `json:"link"`
	Purpose   string    `json:"purpose"`
	Email     string    `json:"email"`
	Role      string    `json:"role,omitempty"`
	OrgID     string    `json:"organisationId,omitempty"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// LinkURL is where a one-time link's token is used: after '#', so that it
// never reaches a server log or a Referer header.
func LinkURL(base, token string) string { return strings.TrimSuffix(base, "/") + "/link#" + token }

func (s *Server) inviteAnswer(r *request, nl app.NewLink) error {
	r.Response.Header.Set("Cache-Control", "no-store")
	return r.ok(http.StatusCreated, inviteView{Link: LinkURL(s.baseURL(r), nl.Token), Purpose: nl.Link.Purpose,
		Email: nl.Link.Email, Role: nl.Link.Role, OrgID: nl.Link.OrgID, ExpiresAt: nl.ExpiresAt},
		"one-time link made; pass it on now, it is not shown again")
}

// baseURL is the node's configured base URL, or the one the request used.
func (s *Server) baseURL(r *request) string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL
	}
	scheme := "http"
	if r.IsTLS() {
		scheme = "https"
	}
	return scheme + "://" + string(r.Host())
}

func (s *Server) consoleInvite(r *request) error {
	var in struct {
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	nl, err := s.app.Invite(app.Invitation{Email: in.Email, OrgID: r.org.ID, Role: in.Role, Purpose: storage.LinkInvite, By: r.principal.User.ID})
	if err != nil {
		return err
	}
	return s.inviteAnswer(r, nl)
}

// invitationView is an invitation not yet used: never its link, which was
// shown once when it was made.
type invitationView struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	CreatedBy string    `json:"createdBy"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt"`
}

func (s *Server) consoleInvitations(r *request) error {
	ls, err := s.app.Invitations(r.org.ID)
	if err != nil {
		return err
	}
	out := make([]invitationView, len(ls))
	for i, l := range ls {
		by := l.CreatedBy
		if u, err := s.deps.Store.User(by); err == nil {
			by = u.Email
		}
		out[i] = invitationView{ID: l.Hash, Email: l.Email, Role: l.Role, CreatedBy: by, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt}
	}
	return r.ok(http.StatusOK, map[string]any{"items": out}, fmt.Sprintf("%d invitations", len(out)))
}

func (s *Server) consoleRevokeInvitation(r *request) error {
	r.asked = true
	if err := s.app.RevokeInvitation(r.org.ID, r.param("inviteId")); err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"id": r.param("inviteId")}, "invitation taken back")
}

func (s *Server) consoleSetRole(r *request) error {
	var in struct {
		Role string `json:"role"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	if err := s.app.SetRole(r.org.ID, r.param("userId"), in.Role); err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"userId": r.param("userId"), "role": in.Role}, "role changed")
}

func (s *Server) consoleRemoveMember(r *request) error {
	r.asked = true
	if err := s.app.RemoveMember(r.org.ID, r.param("userId")); err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"userId": r.param("userId")}, "removed from the organisation")
}

// adminInvite makes an invitation link for the operator (platen admin invite).
func (s *Server) adminInvite(r *request) error {
	id, err := s.orgID(r)
	if err != nil {
		return err
	}
	var in struct {
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	if in.Role == "" {
		in.Role = accounts.RoleMember
	}
	r.asked = true
	nl, err := s.app.Invite(app.Invitation{Email: in.Email, OrgID: id, Role: in.Role, Purpose: storage.LinkInvite, By: "operator"})
	if err != nil {
		return err
	}
	return s.inviteAnswer(r, nl)
}

// adminResetLink makes a password reset link for the operator.
func (s *Server) adminResetLink(r *request) error {
	var in struct {
		Email string `json:"email"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	nl, err := s.app.Invite(app.Invitation{Email: in.Email, Purpose: storage.LinkReset, By: "operator"})
	if err != nil {
		return err
	}
	return s.inviteAnswer(r, nl)
}

// acceptsGzip reads an Accept-Encoding header: gzip listed, and not with q=0.
func acceptsGzip(header []byte) bool {
	for _, part := range strings.Split(string(header), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
