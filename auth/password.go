package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// The argon2id parameters of new password hashes: OWASP's first
// recommendation (19 MiB, two passes, one lane), about 30 ms on this
// project's two-core machines. A stored hash carries its own parameters, so
// raising these later leaves old hashes verifiable.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// MinPasswordLength and MaxPasswordLength bound a password, in characters:
// long enough to resist guessing at the sign-in's rate, short enough that
// hashing one costs a bounded amount of work.
const (
	MinPasswordLength = 10
	MaxPasswordLength = 256
)

// CheckPassword says what is wrong with a new password, or "" when nothing is.
func CheckPassword(pw string) string {
	switch n := utf8.RuneCountInString(pw); {
	case n < MinPasswordLength:
		return fmt.Sprintf("must be at least %d characters", MinPasswordLength)
	case n > MaxPasswordLength:
		return fmt.Sprintf("must be at most %d characters", MaxPasswordLength)
	}
	return ""
}

// HashPassword returns the argon2id hash of pw in the PHC string format
// ($argon2id$v=19$m=…,t=…,p=…$salt$hash), which is what is stored.
func HashPassword(pw string) string {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		panic("auth: crypto/rand failed: " + err.Error())
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// errBadHash is returned for a stored hash that is not an argon2id PHC string.
var errBadHash = errors.New("auth: not an argon2id password hash")

// VerifyPassword reports whether pw matches hash. An empty or malformed hash
// matches nothing, but still costs one hash's work, so the answer's timing
// does not tell whether an account exists or has a password.
func VerifyPassword(hash, pw string) bool {
	ok, err := verify(hash, pw)
	if err != nil {
		argon2.IDKey([]byte(pw), make([]byte, argonSaltLen), argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
		return false
	}
	return ok
}

func verify(hash, pw string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	var mem, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &passes, &threads); err != nil || mem == 0 || passes == 0 || threads == 0 {
		return false, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(pw), salt, passes, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
