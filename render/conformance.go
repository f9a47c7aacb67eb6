package render

import (
	"bytes"
	"fmt"

	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/pdf"
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
	// the finished file.
	PDFA      string               `json:"pdfa"`
	PDFARules []string             `json:"pdfaRules"`
	EInvoice  *EInvoiceConformance `json:"einvoice,omitempty"`
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

const notChecked = "Not checked per document: glyph coverage of the embedded fonts and .notdef use (6.2.11.4.1-2, 6.2.11.8-1), " +
	"content stream operators, and the XML against the CII XSD and the official Schematron (Platen's tests run those on every profile)."

// checkConformance checks the finished PDF and, for an e-invoice, the XML
// it embeds.
func checkConformance(file []byte, job Job, e *EInvoice) *Conformance {
	c := &Conformance{PDFA: "PDF/A-" + job.PDFA, NotChecked: notChecked, PDFARules: []string{}, Failures: []pdf.Check{}}
	var names []string
	for _, a := range job.Attachments {
		names = append(names, a.Name)
	}
	checks, embeddedFiles, err := pdf.CheckPDFAFiles(file, job.PDFA, names...)
	if err != nil {
		checks = []pdf.Check{{ID: "6.1.2-1", Detail: "the finished PDF could not be read back"}}
	}
	for _, ch := range checks {
		c.PDFARules = append(c.PDFARules, ch.ID)
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
