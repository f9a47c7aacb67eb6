package render

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
)

// SignSpec asks for a document to be signed (docs/signatures.md): with
// which of the organisation's certificates, the reason and location the
// signature states, and whether a block on the last page shows it. A
// manifest's applies to every document of the version; a request's
// replaces it.
type SignSpec struct {
	CertificateID string `json:"certificateId"`
	Reason        string `json:"reason,omitempty"`
	Location      string `json:"location,omitempty"`
	// Appearance is "invisible" (the default) or "visible".
	Appearance string `json:"appearance,omitempty"`
}

// maxSignText bounds a signature's reason and location.
const maxSignText = 200

// Check refuses a malformed spec under at, and sets the default appearance.
// Whether the certificate exists is the caller's to check.
func (s *SignSpec) Check(at string) error {
	if !ids.HasKind(s.CertificateID, ids.SigningCertificate) {
		return fault.Invalid(at+".certificateId", "must be the id of one of the organisation's signing certificates (crt_…); GET /v1/signing/certificates lists them")
	}
	for name, v := range map[string]string{"reason": s.Reason, "location": s.Location} {
		if len(v) > maxSignText || !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return fault.Invalid(at+"."+name, "must be text of at most %d bytes without control characters", maxSignText)
		}
	}
	switch s.Appearance {
	case "":
		s.Appearance = "invisible"
	case "invisible", "visible":
	default:
		return fault.Invalid(at+".appearance", "must be invisible or visible")
	}
	return nil
}
