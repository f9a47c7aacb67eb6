// Package links mints and checks download links: an HMAC-SHA256 over the
// document id and the expiry under a key every node shares, so a link needs no
// API key and works on any node until it expires (docs/design.md "Downloads").
package links

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Links signs links with Key; they point under Base, the node's public URL.
type Links struct {
	Key []byte
	// Base is the node's public URL.
	Base string
}

// Link lifetimes (docs/design.md "Downloads").
const (
	DefaultTTL = time.Hour
	MinTTL     = time.Minute
	MaxTTL     = 7 * 24 * time.Hour
)

// Refusals of a link: ErrInvalid for a link that was altered, ErrExpired for one past its time.
var (
	ErrInvalid = errors.New("this download link is not valid")
	ErrExpired = errors.New("this download link has expired; fetch the document again for a fresh one")
)

func (l Links) sign(docID string, exp int64) string {
	m := hmac.New(sha256.New, l.Key)
	fmt.Fprintf(m, "download\n%s\n%d", docID, exp)
	return hex.EncodeToString(m.Sum(nil))
}

// Mint returns a link to a document's file that works until exp.
func (l Links) Mint(docID, filename string, exp time.Time) string {
	e := exp.Unix()
	return fmt.Sprintf("%s/files/%s/%s?expires=%d&signature=%s", strings.TrimSuffix(l.Base, "/"), docID,
		url.PathEscape(filename), e, l.sign(docID, e))
}

// Check verifies a link's signature and expiry.
func (l Links) Check(docID, expires, signature string, now time.Time) error {
	e, err := strconv.ParseInt(expires, 10, 64)
	if err != nil {
		return ErrInvalid
	}
	if !hmac.Equal([]byte(l.sign(docID, e)), []byte(signature)) {
		return ErrInvalid
	}
	if now.Unix() > e {
		return ErrExpired
	}
	return nil
}
