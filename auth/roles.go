package auth

import "github.com/platen/platen/accounts"

// RoleScopes returns the scopes a person with role holds in the console: what
// a key with those scopes may do, a signed-in person may do, through the same
// routes. An unknown role holds nothing.
func RoleScopes(role string) []string {
	switch role {
	case accounts.RoleOwner:
		return AllScopes()
	case accounts.RoleMember:
		return []string{string(DocumentsGenerate), string(DocumentsRead), string(TemplatesRead), string(TemplatesWrite)}
	}
	return nil
}
