package transport_test

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/render"
)

// reportVersion asks for a family this machine lacks (Helvetica Neue), one
// it has (Liberation Serif), and an image from outside the document.
func reportVersion() map[string]any {
	return map[string]any{
		"name": "Report", "slug": "report", "activate": true,
		"html": `<!doctype html><html><head><style>.sheet{padding:10mm} h1{font-family:"Helvetica Neue", sans-serif} p{font-family:"Liberation Serif", serif}</style></head>
<body><div class="sheet"><h1>{{title}}</h1><p>Body text</p><img src="https://cdn.example.com/logo.png" alt="" width="20" height="20"></div></body></html>`,
		"manifest":   map[string]any{"dataSchema": map[string]any{"title": map[string]any{"type": "string", "required": true}}},
		"sampleData": map[string]any{"title": "Sample"},
	}
}

// TestReportOfACompletedDocument: on both engines, the report names the
// substituted family and the image not fetched, the fonts the PDF uses,
// every stage's time, and the size and sha256 of the PDF one downloads.
func TestReportOfACompletedDocument(t *testing.T) {
	n := testnode.Start(t, nil)
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, reportVersion()); r.Status != 201 {
		t.Fatal(r)
	}
	for _, engine := range []string{render.EnginePhantom, render.EngineChromium} {
		t.Run(engine, func(t *testing.T) {
			r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "report", "engine": engine, "data": map[string]any{"title": "Quarterly"}})
			d := testnode.DataAs[testnode.Document](t, r)
			if d.Status != "completed" || d.Engine != engine {
				t.Fatalf("generate: %s", r)
			}
			rep := testnode.Decode[testnode.Report](t, d.Report)
			if rep.Engine != engine || rep.EngineReason == "" || rep.FailedAt != "" {
				t.Fatalf("report %s", d.Report)
			}
			if len(rep.Fonts.Substituted) != 1 || rep.Fonts.Substituted[0].Requested != "Helvetica Neue" || rep.Fonts.Substituted[0].Used != "Liberation Sans" {
				t.Fatalf("substituted %+v in %s", rep.Fonts.Substituted, d.Report)
			}
			if !slices.Contains(rep.Fonts.Used, "Liberation Sans") || !slices.Contains(rep.Fonts.Used, "Liberation Serif") {
				t.Fatalf("used %v", rep.Fonts.Used)
			}
			for _, f := range rep.Fonts.Used {
				if strings.Contains(f, "+") {
					t.Fatalf("a subset tag in %v", rep.Fonts.Used)
				}
			}
			if len(rep.FailedAssets) != 1 || rep.FailedAssets[0].URL != "https://cdn.example.com/logo.png" || !strings.Contains(rep.FailedAssets[0].Reason, "not fetched") {
				t.Fatalf("failed assets %+v", rep.FailedAssets)
			}
			for _, s := range render.Stages {
				// Only a signed document is timed signing (TestSignedDocuments).
				if _, ok := rep.Ms[s]; ok == (s == render.StageSigning) {
					t.Fatalf("ms has or lacks %s: %s", s, d.Report)
				}
			}
			_, pdf := download(t, d.DownloadURL)
			sum := sha256.Sum256(pdf)
			if rep.Bytes != int64(len(pdf)) || rep.SHA256 != hex.EncodeToString(sum[:]) || d.ByteSize != rep.Bytes {
				t.Fatalf("report says %d bytes, sha256 %s; the download is %d bytes, sha256 %x", rep.Bytes, rep.SHA256, len(pdf), sum)
			}
			// The record read again, and in the listing, carries the same report.
			if again := getDocument(t, n, d.ID); string(again.Report) != string(d.Report) {
				t.Fatalf("read again: %s", again.Report)
			}
		})
	}
}

// TestReportOfAFailedDocument: a template that cannot be filled fails at
// filling, with the stages up to it and no PDF.
func TestReportOfAFailedDocument(t *testing.T) {
	n := testnode.Start(t, nil)
	v := reportVersion()
	v["html"] = `{{#each items}}{{asset "missing.png"}}{{/each}}`
	v["manifest"] = map[string]any{}
	v["sampleData"] = map[string]any{"items": []any{}}
	if r := testnode.Do(t, "POST", n.URL+"/v1/templates", n.Key, v); r.Status != 201 {
		t.Fatal(r)
	}
	r := testnode.Do(t, "POST", n.URL+"/v1/documents", n.Key, map[string]any{"templateId": "report", "data": map[string]any{"items": []any{1}}})
	d := testnode.DataAs[testnode.Document](t, r)
	if d.Status != "failed" || d.ErrorCode != "TEMPLATE_ERROR" {
		t.Fatalf("generate: %s", r)
	}
	rep := testnode.Decode[testnode.Report](t, d.Report)
	if rep.FailedAt != "filling" || rep.Bytes != 0 || rep.SHA256 != "" || rep.Fonts.Used == nil || rep.FailedAssets == nil {
		t.Fatalf("report %s", d.Report)
	}
	if len(rep.Ms) != 2 {
		t.Fatalf("ms of a document failed at filling: %v", rep.Ms)
	}
	for _, s := range []string{"queued", "filling"} {
		if _, ok := rep.Ms[s]; !ok {
			t.Fatalf("ms lacks %s: %v", s, rep.Ms)
		}
	}
	list := listDocuments(t, n, n.Key, "?status=failed").Items
	if len(list) != 1 || string(list[0].Report) != string(d.Report) {
		t.Fatalf("listed %+v", list)
	}
}
