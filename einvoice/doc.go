// Package einvoice makes structured e-invoices from an invoice's data: the
// JSON model of EN 16931's business terms (Invoice), the rules that compute
// and check its amounts (Prepare, with the standard's rule ids), and the
// UN/CEFACT Cross Industry Invoice D16B XML of each Factur-X / ZUGFeRD
// profile and of XRechnung (XML), with what the PDF needs to carry it (the
// file name, the AFRelationship and the Factur-X XMP extension schema).
//
// What Prepare checks is a subset of the official EN 16931 rules, in Go,
// so that a document is refused before it renders; the official artefacts
// (XSD and Schematron, ../shared/einvoice) check the XML in the tests.
package einvoice
