// Package auth defines API keys and scopes: how a key's value is made and
// hashed, and which scopes exist (docs/design.md "Scopes"). A key's value is shown
// once when it is made and only its SHA-256 is kept: key values carry 256
// random bits, so a fast hash is as safe as a slow one and costs nothing per
// request.
package auth
