package render

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/pdf"
	"github.com/platen/platen/sign"
)

// Conformance is what a PDF/A or e-invoice document's report says of the
// standards it claims (docs/einvoices.md "The conformance report"): the
// rules Platen checked, by id, the ones the document failed, and a summary
// that counts them. It never says "valid": the full validators (veraPDF,
// the Schematron per document) do not run here, and the report claims
// only what was checked.
type Conformance struct {
	// Summary is "N rules checked, M failed".
	Summary string `json:"summary"`
	Checked int    `json:"checked"`
	Failed  int    `json:"failed"`
	// PDFA is the PDF/A part and level claimed ("PDF/A-3b"), and PDFARules
	// the ids (veraPDF's: clause and test number) of the rules checked on
	// the finished file; both absent when the document is not PDF/A.
	PDFA      string               `json:"pdfa,omitempty"`
	PDFARules []string             `json:"pdfaRules,omitempty"`
	EInvoice  *EInvoiceConformance `json:"einvoice,omitempty"`
	// PDFUA is "PDF/UA-1" when the document claims it, and PDFUARules the
	// PDF/UA rules checked on the finished file (pdf.PDFUARules).
	PDFUA      string   `json:"pdfua,omitempty"`
	PDFUARules []string `json:"pdfuaRules,omitempty"`
	// Signature is the checks of a signed document's signature.
	Signature *SignatureConformance `json:"signature,omitempty"`
	// Failures are the rules the document failed, each with what is wrong;
	// empty when none did.
	Failures []pdf.Check `json:"failures"`
	// NotChecked says what the checks leave out.
	NotChecked string `json:"notChecked"`
}

// EInvoiceConformance is the e-invoice part of the report: the profile,
// the embedded file, the EN 16931 rules checked on the invoice's data
// before rendering (a document breaking one is refused, so a document has
// passed them all), and the checks of the XML the PDF carries.
type EInvoiceConformance struct {
	Profile      string   `json:"profile"`
	File         string   `json:"file"`
	Relationship string   `json:"afRelationship"`
	Rules        []string `json:"rules"`
	XMLChecks    []string `json:"xmlChecks"`
}

// SignatureConformance is the signature part of the report: the PAdES
// level made and the checks of the signature in the finished file
// (sign.SignatureChecks).
type SignatureConformance struct {
	Level  string   `json:"level"`
	Checks []string `json:"checks"`
}

const notCheckedUA = "Not checked for PDF/UA: what a person must judge (that alt text describes its figure, that the reading order makes sense), and fonts in more depth than embedding and Unicode maps; see docs/accessibility.md."

const notCheckedSignature = "Not checked: the signing certificate's trust and revocation, which a reader decides against its own list of authorities."

const notChecked = "Not checked per document: glyph coverage of the embedded fonts and .notdef use (6.2.11.4.1-2, 6.2.11.8-1), " +
	"content stream operators, and the XML against the CII XSD and the official Schematron (Platen's tests run those on every profile)."

// checkConformance checks the finished PDF: its PDF/A rules when job asks
// for PDF/A, the XML an e-invoice embeds, and a signed document's signature.
func checkConformance(file []byte, job Job, e *EInvoice, sig *sign.Signature) *Conformance {
	c := &Conformance{Failures: []pdf.Check{}}
	var checks []pdf.Check
	var embeddedFiles map[string][]byte
	if job.PDFA != "" {
		c.PDFA, c.NotChecked, c.PDFARules = "PDF/A-"+job.PDFA, notChecked, []string{}
		var names []string
		for _, a := range job.Attachments {
			names = append(names, a.Name)
		}
		var err error
		checks, embeddedFiles, err = pdf.CheckPDFAFiles(file, job.PDFA, names...)
		if err != nil {
			checks = []pdf.Check{{ID: "6.1.2-1", Detail: "the finished PDF could not be read back"}}
		}
		for _, ch := range checks {
			c.PDFARules = append(c.PDFARules, ch.ID)
		}
	}
	if e != nil {
		p := e.profile()
		ec := &EInvoiceConformance{Profile: p.String(), File: p.FileName(), Relationship: p.Relationship(), Rules: einvoice.RuleIDs(p)}
		c.Checked += len(ec.Rules)
		var want []byte
		for _, a := range job.Attachments {
			if a.Name == p.FileName() {
				want = a.Data
			}
		}
		got := embeddedFiles[p.FileName()]
		embedded := pdf.Check{ID: "xml-embedded", Passed: got != nil && bytes.Equal(got, want)}
		if !embedded.Passed {
			embedded.Detail = p.FileName() + " is not embedded as it was written"
		}
		checks = append(checks, embedded)
		ec.XMLChecks = append(ec.XMLChecks, embedded.ID)
		for _, xc := range einvoice.CheckXML(got, p) {
			checks = append(checks, pdf.Check{ID: xc.ID, Passed: xc.Passed, Detail: xc.Detail})
			ec.XMLChecks = append(ec.XMLChecks, xc.ID)
		}
		c.EInvoice = ec
	}
	if job.PDFUA {
		c.PDFUA, c.PDFUARules = "PDF/UA-1", []string{}
		ua, err := pdf.CheckPDFUA(file)
		if err != nil {
			ua = []pdf.Check{{ID: "7.1-11", Detail: "the finished PDF could not be read back"}}
		}
		for _, ch := range ua {
			c.PDFUARules = append(c.PDFUARules, ch.ID)
		}
		checks = append(checks, ua...)
		c.NotChecked = strings.TrimSpace(c.NotChecked + " " + notCheckedUA)
	}
	if sig != nil {
		sc := &SignatureConformance{Level: sig.Level, Checks: []string{}}
		v, err := sign.Verify(file)
		if err != nil {
			v = &sign.Verified{Checks: []pdf.Check{{ID: "pades-byte-range", Detail: "the finished PDF carries no signature"}}}
		}
		if sig.Level == "PAdES-B-T" && v.Timestamp == nil && !slices.ContainsFunc(v.Checks, func(c pdf.Check) bool { return c.ID == "pades-signature-timestamp" }) {
			v.Checks = append(v.Checks, pdf.Check{ID: "pades-signature-timestamp", Detail: "the signature has no time-stamp token"})
		}
		for _, ch := range v.Checks {
			sc.Checks = append(sc.Checks, ch.ID)
		}
		checks = append(checks, v.Checks...)
		c.Signature = sc
		c.NotChecked = strings.TrimSpace(c.NotChecked + " " + notCheckedSignature)
	}
	for _, ch := range checks {
		c.Checked++
		if !ch.Passed {
			c.Failures = append(c.Failures, ch)
		}
	}
	c.Failed = len(c.Failures)
	c.Summary = fmt.Sprintf("%d rules checked, %d failed", c.Checked, c.Failed)
	return c
}
