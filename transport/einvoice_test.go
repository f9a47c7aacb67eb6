package transport_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platen/platen/einvoice"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/starters"
)

// eInvoiceTemplate is the e-invoice starter's version with the profile p,
// as a request body that creates the template slug.
func eInvoiceTemplate(t *testing.T, slug string, p einvoice.Profile) map[string]any {
	t.Helper()
	st, ok := starters.Find("e-invoice")
	if !ok {
		t.Fatal("no e-invoice starter")
	}
	var manifest, sample map[string]any
	if err := json.Unmarshal(st.Version.Manifest, &manifest); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(st.Version.SampleData, &sample); err != nil {
		t.Fatal(err)
	}
	manifest["einvoice"] = map[string]any{"profile": p.String()}
	return map[string]any{"name": "E-invoice " + p.String(), "slug": slug, "html": st.Version.HTML, "content": st.Version.Content,
		"manifest": manifest, "sampleData": sample, "assets": st.Version.Assets, "activate": true}
}

func eInvoiceSample(t *testing.T) map[string]any {
	t.Helper()
	st, _ := starters.Find("e-invoice")
	var sample map[string]any
	if err := json.Unmarshal(st.Version.SampleData, &sample); err != nil {
		t.Fatal(err)
	}
	return sample
}

// TestEInvoicesThroughTheAPI: for each profile, a template made from the
// e-invoice starter generates through the API a PDF/A-3b file that embeds
// the profile's XML; the XML, taken from the PDF, passes the official
// artefacts (../shared/einvoice/validate: the CII XSD, the EN 16931 rules
// and the Factur-X profile's XSD and Schematron); poppler sees the PDF/A
// claims, the Factur-X metadata, every font embedded and the attachment;
// and the record's conformance report counts its checks with none failed.
func TestEInvoicesThroughTheAPI(t *testing.T) {
	validate, err := filepath.Abs("../../shared/einvoice/validate")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(validate); err != nil {
		t.Fatalf("the e-invoice validator is missing: %v", err)
	}
	n := testnode.Start(t, nil)
	for _, p := range []einvoice.Profile{einvoice.Minimum, einvoice.BasicWL, einvoice.Basic, einvoice.EN16931, einvoice.Extended, einvoice.XRechnung} {
		slug := "einv-" + strings.ToLower(strings.ReplaceAll(p.String(), " ", ""))
		if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, eInvoiceTemplate(t, slug, p)); r.Status != 201 {
			t.Fatalf("%s: create: %s", p, r)
		}
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": slug, "data": eInvoiceSample(t)})
		d := testnode.DataAs[testnode.Document](t, r)
		if r.Status != 201 || d.Status != "completed" || d.Engine != "phantom" {
			t.Fatalf("%s: generate: %s", p, r)
		}
		var rep struct {
			Conformance struct {
				Summary         string `json:"summary"`
				Checked, Failed int
				PDFA            string `json:"pdfa"`
				EInvoice        struct {
					Profile, File string
					Relationship  string `json:"afRelationship"`
				} `json:"einvoice"`
			} `json:"conformance"`
		}
		if err := json.Unmarshal(d.Report, &rep); err != nil {
			t.Fatal(err)
		}
		c := rep.Conformance
		if c.Failed != 0 || c.Checked < 100 || !strings.HasSuffix(c.Summary, "rules checked, 0 failed") || c.PDFA != "PDF/A-3b" ||
			c.EInvoice.Profile != p.String() || c.EInvoice.File != p.FileName() || c.EInvoice.Relationship != p.Relationship() {
			t.Errorf("%s: conformance report %s", p, d.Report)
		}
		_, pdf := download(t, d.DownloadURL)
		dir := t.TempDir()
		f := filepath.Join(dir, "invoice.pdf")
		if err := os.WriteFile(f, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		meta, _ := exec.Command("pdfinfo", "-meta", f).Output()
		for _, want := range []string{"<pdfaid:part>3</pdfaid:part>", "<pdfaid:conformance>B</pdfaid:conformance>",
			"<fx:ConformanceLevel>" + p.String() + "</fx:ConformanceLevel>", "<fx:DocumentFileName>" + p.FileName() + "</fx:DocumentFileName>",
			"<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>"} {
			if !strings.Contains(string(meta), want) {
				t.Errorf("%s: the XMP lacks %s", p, want)
			}
		}
		info, _ := exec.Command("pdfinfo", f).Output()
		if !strings.Contains(string(info), "Encrypted:       no") {
			t.Errorf("%s: pdfinfo:\n%s", p, info)
		}
		fonts, _ := exec.Command("pdffonts", f).Output()
		lines := strings.Split(strings.TrimSpace(string(fonts)), "\n")
		if len(lines) < 3 {
			t.Errorf("%s: pdffonts lists no font:\n%s", p, fonts)
		}
		for _, l := range lines[2:] {
			if fs := strings.Fields(l); len(fs) < 5 || fs[len(fs)-5] != "yes" {
				t.Errorf("%s: a font is not embedded: %s", p, l)
			}
		}
		list, _ := exec.Command("pdfdetach", "-list", f).Output()
		if !strings.Contains(string(list), "1 embedded files") || !strings.Contains(string(list), p.FileName()) {
			t.Errorf("%s: pdfdetach -list:\n%s", p, list)
		}
		// The XML the API hands out is the one the PDF carries.
		xr := testnode.Do(t, "GET", n.URL+"/v1/documents/"+d.ID+"/einvoice", n.Key, nil)
		if xr.Status != 200 || !strings.HasPrefix(xr.Header.Get("Content-Type"), "application/xml") ||
			!strings.Contains(xr.Header.Get("Content-Disposition"), p.FileName()) || !strings.Contains(string(xr.Body), "<ram:ID>"+p.Guideline()+"</ram:ID>") {
			t.Errorf("%s: GET einvoice: %d %s %.200s", p, xr.Status, xr.Header, xr.Body)
		}
		args := []string{f}
		if v := einvoice.ValidatorProfile(p); v != "" {
			args = []string{"--profile", v, f}
		}
		out, _ := exec.Command(validate, args...).CombinedOutput()
		for _, l := range strings.Split(string(out), "\n") {
			if !strings.HasPrefix(l, "FAIL ") {
				continue
			}
			// MINIMUM and BASIC WL carry no lines: EN 16931's line rules
			// fail on them by definition; their own profile must pass.
			if (p == einvoice.Minimum || p == einvoice.BasicWL) && strings.HasPrefix(l, "FAIL en16931 ") {
				continue
			}
			t.Errorf("%s: %s", p, l)
		}
		if !strings.Contains(string(out), "passed, ") {
			t.Errorf("%s: the validator did not run:\n%s", p, out)
		}
	}
}

// TestEInvoiceRefusals: bad invoice data is refused before anything is
// created, with 422, the rule and business term in the message, and the
// request's field; a version whose sample is a bad invoice, or that asks
// for PDF/A-2, is refused at save.
func TestEInvoiceRefusals(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, eInvoiceTemplate(t, "einv", einvoice.EN16931)); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	cases := []struct {
		name        string
		edit        func(map[string]any)
		field, want string
	}{
		{"wrong total", func(d map[string]any) { d["totals"] = map[string]any{"grandTotal": 1000} }, "data.totals.grandTotal", "BR-CO-15"},
		{"rate missing", func(d map[string]any) {
			d["lines"].([]any)[1].(map[string]any)["vat"] = map[string]any{"category": "S"}
		}, "data.lines[1].vat.rate", "BR-S-05"},
		{"no seller VAT id", func(d map[string]any) { delete(d["seller"].(map[string]any), "vatId") }, "data.seller.vatId", "BR-S-02"},
		{"unknown currency", func(d map[string]any) { d["currency"] = "EUX" }, "data.currency", "BR-CL-04"},
		{"unknown unit", func(d map[string]any) { d["lines"].([]any)[0].(map[string]any)["unit"] = "months" }, "data.lines[0].unit", "BR-CL-23"},
		{"a number as text", func(d map[string]any) { d["lines"].([]any)[0].(map[string]any)["name"] = 7 }, "data.lines.name", "must be a string"},
	}
	// chromium named for a template that makes PDF/A: refused before anything is made.
	if r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "einv", "data": eInvoiceSample(t), "engine": "chromium"}); r.Status != 400 || r.Field() != "engine" {
		t.Errorf("chromium for an e-invoice template: %s", r)
	}
	before := testnode.Do(t, "GET", n.URL+"/v1/documents", n.Key, nil)
	for _, c := range cases {
		data := eInvoiceSample(t)
		c.edit(data)
		r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "einv", "data": data})
		if r.Status != 422 || r.Code() != "PAYLOAD_VALIDATION_FAILED" || r.Field() != c.field || !strings.Contains(r.Problem().Message, c.want) {
			t.Errorf("%s: %s", c.name, r)
		}
	}
	if after := testnode.Do(t, "GET", n.URL+"/v1/documents", n.Key, nil); len(after.Body) != len(before.Body) {
		t.Errorf("a refused e-invoice left a document behind: %s", after)
	}
	// A document that is not an e-invoice has no XML to hand out.
	plain := invoiceVersion(true)
	plain["name"], plain["slug"] = "Plain", "plain"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, plain); r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	d := testnode.DataAs[testnode.Document](t, testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "plain", "data": invoiceData(1)}))
	if r := testnode.Do(t, "GET", n.URL+"/v1/documents/"+d.ID+"/einvoice", n.Key, nil); r.Status != 404 || !strings.Contains(r.Problem().Message, "not an e-invoice") {
		t.Errorf("the XML of a plain document: %s", r)
	}

	bad := eInvoiceTemplate(t, "einv2", einvoice.EN16931)
	bad["sampleData"].(map[string]any)["currency"] = "EUX"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, bad); r.Status != 400 || r.Field() != "sampleData.currency" || !strings.Contains(r.Problem().Message, "BR-CL-04") {
		t.Errorf("a bad sample: %s", r)
	}
	pdfa2 := eInvoiceTemplate(t, "einv3", einvoice.EN16931)
	pdfa2["manifest"].(map[string]any)["pdfa"] = "2b"
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, pdfa2); r.Status != 400 || r.Field() != "manifest.pdfa" {
		t.Errorf("PDF/A-2 for an e-invoice: %s", r)
	}
	unknown := eInvoiceTemplate(t, "einv4", einvoice.EN16931)
	unknown["manifest"].(map[string]any)["einvoice"] = map[string]any{"profile": "COMFORT"}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, unknown); r.Status != 400 || r.Field() != "manifest.einvoice.profile" {
		t.Errorf("an unknown profile: %s", r)
	}
}
