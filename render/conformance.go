package render

import (
	"bytes"
	"fmt"

	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/pdf"
)

// Conformance is what a PDF/A or e-invoice document's report says of the
// standards it claims (docs/einvoices.md "The conformance report"): each
// rule Platen checked, by its id, and whether the document passed it, with
// a summary that counts them. It never says "valid": the full validators
// (veraPDF, the Schematron per document) do not run here, and the report
// claims only what was checked.
type Conformance struct {
	// Summary is "N rules checked, M failed".
	Summary string `json:"summary"`
	Checked int    `json:"checked"`
	Failed  int    `json:"failed"`
	// PDFA is the PDF/A part and level claimed ("PDF/A-3b") and its checks,
	// by veraPDF rule id.
	PDFA       string               `json:"pdfa"`
	PDFAChecks []pdf.Check          `json:"pdfaChecks"`
	EInvoice   *EInvoiceConformance `json:"einvoice,omitempty"`
	// NotChecked says what the checks leave out.
	NotChecked string `json:"notChecked"`
}

// EInvoiceConformance is the e-invoice part of the report: the profile,
// the embedded file, and the checks on the invoice's data (EN 16931 rules
// by id, made before rendering, so all passed when there is a document)
// and on the embedded XML.
type EInvoiceConformance struct {
	Profile      string      `json:"profile"`
	File         string      `json:"file"`
	Relationship string      `json:"afRelationship"`
	Rules        []pdf.Check `json:"rules"`
	XMLChecks    []pdf.Check `json:"xmlChecks"`
}

const notChecked = "Not checked per document: glyph coverage of the embedded fonts and .notdef use (6.2.11.4.1-2, 6.2.11.8-1), " +
	"content stream operators, and the XML against the CII XSD and the official Schematron (Platen's tests run those on every profile)."

// checkConformance checks the finished PDF and, for an e-invoice, the XML
// it embeds.
func checkConformance(file []byte, job Job, e *EInvoice) *Conformance {
	c := &Conformance{PDFA: "PDF/A-" + job.PDFA, NotChecked: notChecked, PDFAChecks: []pdf.Check{}}
	var names []string
	for _, a := range job.Attachments {
		names = append(names, a.Name)
	}
	checks, err := pdf.CheckPDFA(file, job.PDFA, names...)
	if err != nil {
		checks = []pdf.Check{{ID: "6.1.2-1", Detail: "the PDF could not be read back"}}
	}
	c.PDFAChecks = checks
	if e != nil {
		p := e.profile()
		ec := &EInvoiceConformance{Profile: p.String(), File: p.FileName(), Relationship: p.Relationship()}
		for _, id := range einvoice.RuleIDs(p) {
			ec.Rules = append(ec.Rules, pdf.Check{ID: id, Passed: true})
		}
		var want []byte
		for _, a := range job.Attachments {
			if a.Name == p.FileName() {
				want = a.Data
			}
		}
		got, err := pdf.EmbeddedFile(file, p.FileName())
		embedded := pdf.Check{ID: "facturx-embedded", Passed: err == nil && got != nil && bytes.Equal(got, want)}
		if !embedded.Passed {
			embedded.Detail = fmt.Sprintf("%s is not embedded as written", p.FileName())
		}
		ec.XMLChecks = append(ec.XMLChecks, embedded)
		for _, xc := range einvoice.CheckXML(got, p) {
			ec.XMLChecks = append(ec.XMLChecks, pdf.Check{ID: xc.ID, Passed: xc.Passed, Detail: xc.Detail})
		}
		c.EInvoice = ec
		checks = append(append(checks, ec.Rules...), ec.XMLChecks...)
	}
	for _, ch := range checks {
		c.Checked++
		if !ch.Passed {
			c.Failed++
		}
	}
	c.Summary = fmt.Sprintf("%d rules checked, %d failed", c.Checked, c.Failed)
	return c
}
