package auth

// Roles of a person in an organisation (docs/design.md "Accounts and the
// dashboard").
const (
	// RoleOwner manages keys, webhooks, people and sees the wallet, besides
	// all a member does.
	RoleOwner = "owner"
	// RoleMember generates documents and reads and edits templates.
	RoleMember = "member"
)

// KnownRole reports whether r is a role.
func KnownRole(r string) bool { return r == RoleOwner || r == RoleMember }

// RoleScopes returns the scopes a person with role holds in the console: what
// a key with those scopes may do, a signed-in person may do, through the same
// routes. An unknown role holds nothing.
func RoleScopes(role string) []string {
	switch role {
	case RoleOwner:
		return AllScopes()
	case RoleMember:
		return []string{string(DocumentsGenerate), string(DocumentsRead), string(TemplatesRead), string(TemplatesWrite)}
	}
	return nil
}
