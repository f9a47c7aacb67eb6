package transport

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/platen/platen/app"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/storage"
)

// certificateView is a signing certificate as the API shows it: never its
// key.
type certificateView struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Subject      string    `json:"subject"`
	SubjectDN    string    `json:"subjectDn"`
	IssuerDN     string    `json:"issuerDn"`
	Serial       string    `json:"serial"`
	Fingerprint  string    `json:"sha256"`
	KeyAlgorithm string    `json:"keyAlgorithm"`
	NotBefore    time.Time `json:"notBefore"`
	NotAfter     time.Time `json:"notAfter"`
	ChainLength  int       `json:"chainLength"`
	CreatedAt    time.Time `json:"createdAt"`
}

func viewCertificate(c storage.SigningCertificate) certificateView {
	return certificateView{ID: c.ID, Name: c.Name, Subject: c.Subject, SubjectDN: c.SubjectDN, IssuerDN: c.IssuerDN, Serial: c.Serial,
		Fingerprint: c.Fingerprint, KeyAlgorithm: c.KeyAlgorithm, NotBefore: c.NotBefore, NotAfter: c.NotAfter, ChainLength: c.ChainLength,
		CreatedAt: c.CreatedAt}
}

// createCertificate stores a signing certificate from a PKCS#12 upload:
// multipart fields file, password and, optionally, name.
func (s *Server) createCertificate(r *request) error {
	form, err := r.MultipartForm()
	if err != nil {
		return fault.Invalid("file", "send the PKCS#12 file as multipart/form-data with the fields file, password and name")
	}
	files := form.File["file"]
	if len(files) != 1 {
		return fault.Invalid("file", "send exactly one PKCS#12 file (.p12 or .pfx) in the field file")
	}
	data, err := readPart(files[0])
	if err != nil {
		return err
	}
	var password string
	if v := form.Value["password"]; len(v) > 0 {
		password = v[0] // as typed: a password's spaces are its own
	}
	r.asked = true
	c, err := s.app.CreateSigningCertificate(context.Background(), r.org.ID, app.NewSigningCertificate{Name: formValue(form, "name"), PKCS12: data, Password: password})
	if err != nil {
		return err
	}
	return r.ok(http.StatusCreated, viewCertificate(c), fmt.Sprintf("signing certificate stored for %s, valid until %s; its key is sealed and never shown", c.Subject, c.NotAfter.Format("2006-01-02")))
}

func (s *Server) listCertificates(r *request) error {
	cs, err := s.app.SigningCertificates(r.org.ID)
	if err != nil {
		return err
	}
	items := make([]certificateView, 0, len(cs))
	for _, c := range cs {
		items = append(items, viewCertificate(c))
	}
	return r.ok(http.StatusOK, map[string]any{"items": items}, fmt.Sprintf("%d signing certificates", len(items)))
}

func (s *Server) getCertificate(r *request) error {
	c, err := s.app.SigningCertificate(r.org.ID, r.param("id"))
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewCertificate(c), "")
}

func (s *Server) deleteCertificate(r *request) error {
	r.asked = true
	c, err := s.app.DeleteSigningCertificate(context.Background(), r.org.ID, r.param("id"))
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"id": c.ID, "deleted": true}, "signing certificate deleted and its key erased; documents it signed keep their signatures")
}
