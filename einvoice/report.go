package einvoice

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
)

// rules are the EN 16931 rules Prepare checks, by id, besides each VAT
// category's own (categoryRules).
var rules = strings.Fields(`BR-02 BR-03 BR-05 BR-06 BR-07 BR-08 BR-09 BR-10 BR-11 BR-12 BR-13 BR-16 BR-18 BR-19 BR-20
	BR-22 BR-23 BR-25 BR-26 BR-27 BR-28 BR-29 BR-30 BR-31 BR-32 BR-33 BR-36 BR-37 BR-38 BR-41 BR-42 BR-43 BR-44
	BR-49 BR-51 BR-55 BR-56 BR-57 BR-61 BR-62 BR-63 BR-64
	BR-CL-01 BR-CL-04 BR-CL-14 BR-CL-16 BR-CL-18 BR-CL-19 BR-CL-20 BR-CL-22 BR-CL-23
	BR-CO-04 BR-CO-09 BR-CO-10 BR-CO-11 BR-CO-12 BR-CO-13 BR-CO-14 BR-CO-15 BR-CO-16 BR-CO-17 BR-CO-18 BR-CO-25 BR-CO-26
	BR-DEC-09 BR-DEC-10 BR-DEC-11 BR-DEC-12 BR-DEC-13 BR-DEC-14 BR-DEC-16 BR-DEC-17 BR-DEC-18 BR-DEC-19 BR-DEC-20 BR-DEC-23
	BR-IC-11 BR-IC-12`)

// germanRules are XRechnung's own (the German CIUS).
var germanRules = strings.Fields("BR-DE-1 BR-DE-3 BR-DE-4 BR-DE-5 BR-DE-6 BR-DE-7 BR-DE-8 BR-DE-9 BR-DE-15")

// categoryRules are the rule families of the VAT categories and the
// rules of each that Prepare checks: -01 (a breakdown per category), -02
// (the VAT identifiers it needs), -05 (the line's rate), -08 (the taxable
// amount), -09 (the tax; BR-CO-17 for standard rate) and -10 (the
// exemption reason).
var categoryRules = map[string][]string{
	"S": {"01", "02", "05", "08", "10"}, "Z": {"01", "02", "05", "08", "09", "10"}, "E": {"01", "02", "05", "08", "09", "10"},
	"AE": {"01", "02", "05", "08", "09", "10"}, "IC": {"01", "02", "05", "08", "09", "10"}, "G": {"01", "02", "05", "08", "09", "10"},
	"IG": {"01", "02", "05", "08", "09", "10"}, "IP": {"01", "02", "05", "08", "09", "10"}, "O": {"01", "02", "05", "08", "09", "10"},
}

// RuleIDs lists the rules Prepare checks for a profile, in a fixed order:
// what a document's conformance report lists as checked before rendering.
func RuleIDs(p Profile) []string {
	// MINIMUM does not need what BASIC WL adds (checker.party, totals,
	// vatCategories): the buyer's address, the line total, a VAT
	// breakdown, a due date, the seller's identifiers.
	minimumSkips := map[string]bool{"BR-10": true, "BR-12": true, "BR-CO-18": true, "BR-CO-25": true, "BR-CO-26": true,
		"BR-S-02": true, "BR-Z-02": true, "BR-E-02": true, "BR-G-02": true, "BR-IG-02": true, "BR-IP-02": true}
	var out []string
	add := func(id string) {
		if p.has(BasicWL) || !minimumSkips[id] {
			out = append(out, id)
		}
	}
	for _, id := range rules {
		add(id)
	}
	for _, fam := range []string{"S", "Z", "E", "AE", "IC", "G", "IG", "IP", "O"} {
		for _, n := range categoryRules[fam] {
			add("BR-" + fam + "-" + n)
		}
	}
	if p == XRechnung {
		out = append(out, germanRules...)
	}
	return out
}

// XMLCheck is a check of an embedded XML.
type XMLCheck struct {
	ID     string
	Passed bool
	Detail string
}

// CheckXML checks the XML a PDF carries: well-formed, a Cross Industry
// Invoice, declaring the profile's specification identifier (BT-24, BR-01).
func CheckXML(b []byte, p Profile) []XMLCheck {
	wf := XMLCheck{ID: "xml-well-formed", Passed: true}
	root := XMLCheck{ID: "xml-cross-industry-invoice"}
	guide := XMLCheck{ID: "BR-01"}
	dec := xml.NewDecoder(bytes.NewReader(b))
	var path []string
	first := true
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil || len(b) == 0 {
			wf = XMLCheck{ID: wf.ID, Detail: "the XML is not well-formed"}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if first {
				root.Passed = t.Name.Local == "CrossIndustryInvoice" && t.Name.Space == "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
				first = false
			}
			path = append(path, t.Name.Local)
		case xml.EndElement:
			path = path[:len(path)-1]
		case xml.CharData:
			if strings.Join(path, "/") == "CrossIndustryInvoice/ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID" {
				guide.Passed = strings.TrimSpace(string(t)) == p.Guideline()
			}
		}
	}
	if len(b) == 0 {
		wf = XMLCheck{ID: wf.ID, Detail: "no XML is embedded"}
	}
	if !root.Passed {
		root.Detail = "the root element is not rsm:CrossIndustryInvoice"
	}
	if !guide.Passed {
		guide.Detail = "the specification identifier (BT-24) is not " + p.Guideline()
	}
	return []XMLCheck{wf, root, guide}
}
