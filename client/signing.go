package client

import (
	"context"
	"fmt"
	"io"
)

// SigningService is the signing certificates routes (docs/signatures.md
// "The certificate's life"): the organisation's certificates, with keys
// sealed on the node, that a SignSpec names to sign a document. Reading
// needs the scope signing.read; storing and deleting, signing.write.
type SigningService struct{ c *Client }

// CreateCertificateRequest stores a certificate and its key from a PKCS#12
// file (.p12 or .pfx, up to 256 KB): File is read whole and sent as
// Filename, with the Password that opens it.
type CreateCertificateRequest struct {
	File     io.Reader
	Filename string
	// Password is sent as it is, spaces and all; neither it nor the file
	// is kept.
	Password string
	// Name defaults to the certificate's common name.
	Name string
}

// Create stores a signing certificate. A file the node cannot use (a wrong
// password, a weak or unsupported key, a certificate that is not valid
// now or may not sign) is an *Error INVALID_REQUEST naming "file" or
// "password" and saying what to fix.
func (s *SigningService) Create(ctx context.Context, req CreateCertificateRequest, opts ...CallOption) (*SigningCertificate, error) {
	if req.File == nil {
		return nil, fmt.Errorf("platen: Signing.Create needs a File")
	}
	// The password goes even when empty: a file may have none.
	fields := []formField{{"password", req.Password}}
	if req.Name != "" {
		fields = append(fields, formField{"name", req.Name})
	}
	name := req.Filename
	if name == "" {
		name = "certificate.p12"
	}
	cl := s.c.newCall(opCreateCertificate)
	if err := cl.formBody(fields, name, req.File, "the PKCS#12 file"); err != nil {
		return nil, err
	}
	return s.certificate(ctx, cl, opts)
}

// List lists the organisation's signing certificates, oldest first,
// expired ones included.
func (s *SigningService) List(ctx context.Context, opts ...CallOption) ([]SigningCertificate, error) {
	var l items[SigningCertificate]
	if err := s.c.do(ctx, s.c.newCall(opListCertificates), &l, opts); err != nil {
		return nil, err
	}
	return l.Items, nil
}

// Get reads a signing certificate.
func (s *SigningService) Get(ctx context.Context, id string, opts ...CallOption) (*SigningCertificate, error) {
	return s.certificate(ctx, s.c.newCall(opGetCertificate, id), opts)
}

// Delete deletes a signing certificate and erases its key. Documents it
// signed keep their signatures; a request or template that names it
// afterwards is refused, and a document still pending fails
// SIGNING_FAILED (CodeSigningFailed).
func (s *SigningService) Delete(ctx context.Context, id string, opts ...CallOption) error {
	return s.c.do(ctx, s.c.newCall(opDeleteCertificate, id), nil, opts)
}

func (s *SigningService) certificate(ctx context.Context, cl *call, opts []CallOption) (*SigningCertificate, error) {
	var sc SigningCertificate
	if err := s.c.do(ctx, cl, &sc, opts); err != nil {
		return nil, err
	}
	return &sc, nil
}
