package render

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/fault"
)

func checked(t testing.TB, html, manifest string, assets map[string]string) *Checked {
	t.Helper()
	c, err := Version{HTML: html, Manifest: json.RawMessage(manifest), Assets: assets,
		Content: json.RawMessage(`{"bank":"IBAN DE00 1234"}`)}.Check()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fill(t *testing.T, html string, data map[string]any) string {
	t.Helper()
	c := checked(t, html, `{"locale":"en-GB","currency":"GBP"}`, map[string]string{"logo.png": pngURI})
	out, err := Fill(c, data, FillOptions{Now: time.Date(2026, 3, 5, 10, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var pngURI = "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("\x89PNG fake"))

func TestHelpers(t *testing.T) {
	data := map[string]any{
		"n": 1234567.891, "neg": -5.5, "zero": 0.0, "s": "Hello", "date": "2026-11-21", "empty": "",
		"items": []any{map[string]any{"price": 2.5}, map[string]any{"price": 4.0}},
		"obj":   map[string]any{"a": 1.0}, "markup": "<i>",
	}
	cases := []struct{ tpl, want string }{
		{`{{asset "logo.png"}}`, pngURI},
		{`{{formatNumber n}}`, "1,234,567.89"},
		{`{{formatNumber n decimals=0}}`, "1,234,568"},
		{`{{formatNumber n locale="de-DE"}}`, "1.234.567,89"},
		{`{{formatNumber n locale="fr-FR" decimals=1}}`, "1\u202f234\u202f567,9"},
		{`{{formatNumber neg}}`, "-5.50"},
		{`{{formatNumber "12.5"}}`, "12.50"},
		{`{{formatCurrency n}}`, "£1,234,567.89"},
		{`{{formatCurrency n currency="EUR" locale="de-DE"}}`, "1.234.567,89\u00a0€"},
		{`{{formatCurrency n currency="EUR" locale="nl-NL"}}`, "€\u00a01.234.567,89"},
		{`{{formatCurrency n currency="JPY" locale="en-US"}}`, "¥1,234,568"},
		{`{{formatCurrency neg currency="USD" locale="en-US"}}`, "-$5.50"},
		{`{{formatCurrency n currency="CHF" locale="en-US"}}`, "CHF\u00a01,234,567.89"},
		{`{{formatCurrency zero currency="XYZ"}}`, "XYZ\u00a00.00"},
		{`{{formatDate date}}`, "21 Nov 2026"},
		{`{{formatDate date format="long"}}`, "21 November 2026"},
		{`{{formatDate date format="short" locale="en-US"}}`, "11/21/2026"},
		{`{{formatDate date format="long" locale="de-DE"}}`, "21. November 2026"},
		{`{{formatDate date format="long" locale="es-ES"}}`, "21 de noviembre de 2026"},
		{`{{formatDate date format="iso"}}`, "2026-11-21"},
		{`{{formatDate date format="DD MMM YY"}}`, "21 Nov 26"},
		{`{{formatDate "now" format="iso"}}`, "2026-03-05"},
		{`{{add 2 3}} {{subtract 2 3}} {{multiply 2.5 4}} {{divide 7 2}} {{divide 1 0}}`, "5 -1 10 3.5 0"},
		{`{{round 2.675 decimals=2}} {{round 2.5}}`, "2.68 3"},
		{`{{sum items "price"}}`, "6.5"},
		{`{{length items}} {{length s}} {{length missing}}`, "2 5 0"},
		{`{{formatCurrency (multiply (sum items "price") 2)}}`, "£13.00"},
		{`{{#each items}}{{inc @index}}{{/each}}`, "12"},
		{`{{#if (eq s "Hello")}}y{{else}}n{{/if}}{{#if (ne 1 2)}}y{{/if}}`, "yy"},
		{`{{#if (lt 2 10)}}y{{/if}}{{#if (lte 2 2)}}y{{/if}}{{#if (gt 10 2)}}y{{/if}}{{#if (gte 1 2)}}n{{/if}}`, "yyy"},
		{`{{#if (and s n)}}y{{/if}}{{#if (or empty zero)}}n{{/if}}{{#if (not empty)}}y{{/if}}`, "yy"},
		{`{{json obj}}`, "{&quot;a&quot;:1}"},
		{`{{{json obj}}}`, `{"a":1}`},
		{`{{default empty "fallback"}} {{default s "fallback"}}`, "fallback Hello"},
		{`{{upper s}} {{lower s}}`, "HELLO hello"},
		{`{{content.bank}}`, "IBAN DE00 1234"},
		{`{{s}} <b>{{markup}}</b> {{{markup}}}`, "Hello <b>&lt;i&gt;</b> <i>"},
	}
	for _, c := range cases {
		if got := fill(t, c.tpl, data); got != c.want {
			t.Errorf("%s = %q, want %q", c.tpl, got, c.want)
		}
	}
}

func TestEveryHelperIsRegisteredAndDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	registered := env{}.helpers()
	if len(registered) != len(HelperNames) {
		t.Fatalf("%d helpers registered, %d listed", len(registered), len(HelperNames))
	}
	for _, name := range HelperNames {
		if registered[name] == nil {
			t.Errorf("%s is listed but not registered", name)
		}
		if !strings.Contains(string(doc), "`"+name) {
			t.Errorf("%s is not documented in docs/templates.md", name)
		}
	}
}

func TestFillRefusesUnknownAssetAndSurvivesPanics(t *testing.T) {
	c := checked(t, `x`, `{}`, nil)
	c.HTML = `{{asset "missing.png"}}`
	if _, err := Fill(c, nil, FillOptions{}); !errors.Is(err, ErrFill) || !strings.Contains(err.Error(), "missing.png") {
		t.Fatalf("unknown asset: %v", err)
	}
	c.HTML = `{{formatNumber}}` // wrong number of arguments
	if _, err := Fill(c, nil, FillOptions{}); !errors.Is(err, ErrFill) {
		t.Fatalf("bad helper call: %v", err)
	}
}

func TestFillBudget(t *testing.T) {
	c := checked(t, `x`, `{}`, nil)
	c.HTML = `{{#each rows}}{{#each ../rows}}{{#each ../../rows}}{{formatNumber this}}{{/each}}{{/each}}{{/each}}`
	rows := make([]any, 300)
	for i := range rows {
		rows[i] = float64(i)
	}
	_, err := Fill(c, map[string]any{"rows": rows}, FillOptions{Limits: FillLimits{Time: 50 * time.Millisecond, Steps: 1 << 60}})
	if !errors.Is(err, ErrFill) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("runaway template: %v", err)
	}
}

func TestPaginate(t *testing.T) {
	items := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	cases := []struct {
		n, per, first int
		want          []int // items on each page
	}{
		{0, 10, 5, []int{0}},
		{1, 10, 5, []int{1}},
		{5, 10, 5, []int{5}},         // exactly the first page
		{6, 10, 5, []int{5, 1}},      // one over
		{15, 10, 5, []int{5, 10}},    // exactly full
		{16, 10, 5, []int{5, 10, 1}}, // overflow
		{20, 10, 0, []int{10, 10}},   // first page defaults to per page
		{3, 1, 1, []int{1, 1, 1}},
	}
	for _, c := range cases {
		pages := Paginate(items(c.n), c.per, c.first)
		var got []int
		next := 0
		for i, p := range pages {
			got = append(got, len(p.Items))
			if p.PageNumber != i+1 || p.PageCount != len(pages) || p.IsFirstPage != (i == 0) || p.IsLastPage != (i == len(pages)-1) {
				t.Errorf("n=%d page %d: %+v", c.n, i, p)
			}
			for _, it := range p.Items {
				if it != next {
					t.Errorf("n=%d: item %v out of order, want %d", c.n, it, next)
				}
				next++
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("Paginate(%d, per %d, first %d) = %v, want %v", c.n, c.per, c.first, got, c.want)
		}
	}
}

func TestPaginatedTemplateGetsPages(t *testing.T) {
	c := checked(t, `{{#each pages}}[{{pageNumber}}/{{pageCount}}{{#if isFirstPage}} first{{/if}}{{#if isLastPage}} last{{/if}}:{{#each items}}{{this}}{{/each}}]{{/each}}`,
		`{"pagination":{"collection":"rows","itemsPerPage":3,"firstPageItemCount":2},"dataSchema":{"rows":{"type":"array"}}}`, nil)
	out, err := Fill(c, map[string]any{"rows": []any{"a", "b", "c", "d", "e", "f"}}, FillOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out != "[1/3 first:ab][2/3:cde][3/3 last:f]" {
		t.Fatalf("got %s", out)
	}
}

func TestVersionCheck(t *testing.T) {
	big := "data:image/png;base64," + base64.StdEncoding.EncodeToString(make([]byte, MaxAssetBytes+1))
	nearly := "data:image/png;base64," + base64.StdEncoding.EncodeToString(make([]byte, MaxAssetBytes-10))
	five := map[string]string{}
	for i := 0; i < 5; i++ {
		five[fmt.Sprintf("a%d.png", i)] = nearly
	}
	cases := []struct {
		name  string
		v     Version
		field string
	}{
		{"no html", Version{}, "html"},
		{"does not compile", Version{HTML: "{{#if x}}open"}, "html"},
		{"unknown helper", Version{HTML: "{{nope 1}}"}, "html"},
		{"sample breaks schema", Version{HTML: "x", Manifest: json.RawMessage(`{"dataSchema":{"total":{"type":"number","required":true}}}`), SampleData: json.RawMessage(`{"total":"ten"}`)}, "sampleData.total"},
		{"bad page size", Version{HTML: "x", Manifest: json.RawMessage(`{"pageSize":"B5"}`)}, "manifest.pageSize"},
		{"bad custom size", Version{HTML: "x", Manifest: json.RawMessage(`{"pageSize":{"width":"10px","height":"297mm"}}`)}, "manifest.pageSize.width"},
		{"bad orientation", Version{HTML: "x", Manifest: json.RawMessage(`{"orientation":"sideways"}`)}, "manifest.orientation"},
		{"bad engine", Version{HTML: "x", Manifest: json.RawMessage(`{"engine":"webkit"}`)}, "manifest.engine"},
		{"bad margin", Version{HTML: "x", Manifest: json.RawMessage(`{"margins":{"top":"1 inch"}}`)}, "manifest.margins.top"},
		{"unknown manifest field", Version{HTML: "x", Manifest: json.RawMessage(`{"paper":"A4"}`)}, "manifest.paper"},
		{"unknown helper in a subexpression", Version{HTML: "{{#if (bigger 1 2)}}x{{/if}}"}, "html"},
		{"partial", Version{HTML: "{{> footer}}"}, "html"},
		{"pagination without collection", Version{HTML: "x", Manifest: json.RawMessage(`{"pagination":{"itemsPerPage":5}}`)}, "manifest.pagination.collection"},
		{"pagination of a non-array", Version{HTML: "x", Manifest: json.RawMessage(`{"pagination":{"collection":"n","itemsPerPage":5},"dataSchema":{"n":{"type":"number"}}}`)}, "manifest.pagination.collection"},
		{"reserved field", Version{HTML: "x", Manifest: json.RawMessage(`{"dataSchema":{"pages":{"type":"array"}}}`)}, "manifest.dataSchema.pages"},
		{"bad schema", Version{HTML: "x", Manifest: json.RawMessage(`{"dataSchema":{"a":{"type":"text"}}}`)}, "manifest.dataSchema.a.type"},
		{"content not an object", Version{HTML: "x", Content: json.RawMessage(`"text"`)}, "content"},
		{"asset not a data URI", Version{HTML: "x", Assets: map[string]string{"logo.png": "http://example.com/logo.png"}}, "assets.logo.png"},
		{"asset wrong type", Version{HTML: "x", Assets: map[string]string{"a.html": "data:text/html;base64,PGI+"}}, "assets.a.html"},
		{"asset bad name", Version{HTML: "x", Assets: map[string]string{"../x.png": pngURI}}, "assets.../x.png"},
		{"asset over 1 MB", Version{HTML: "x", Assets: map[string]string{"big.png": big}}, "assets.big.png"},
		{"assets over 4 MB", Version{HTML: "x", Assets: five}, "assets"},
		{"bad locale", Version{HTML: "x", Manifest: json.RawMessage(`{"locale":"xx-YY"}`)}, "manifest.locale"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.v.Check()
			var fe *fault.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, fault.ErrInvalid) {
				t.Fatalf("got %v, want an invalid-request refusal of %s", err, c.field)
			}
		})
	}
	four := map[string]string{"a.png": nearly, "b.png": nearly, "c.png": nearly, "d.png": nearly}
	if _, err := (Version{HTML: "{{asset \"a.png\"}}", Assets: four}).Check(); err != nil {
		t.Fatalf("four assets just under 1 MB refused: %v", err)
	}
}

func TestDocumentGeometry(t *testing.T) {
	m, err := ParseManifest([]byte(`{"pageSize":"A4","orientation":"landscape","margins":{"top":"10mm","bottom":"1cm","left":"0.5in","right":"0"}}`), "manifest")
	if err != nil {
		t.Fatal(err)
	}
	g := m.Geometry()
	if g.WidthMM != 297 || g.HeightMM != 210 || g.SheetHeightMM() != 190 || g.SheetWidthMM() != 297-12.7 {
		t.Fatalf("geometry %+v", g)
	}
	doc := Document(`<html><head><style>.x{}</style></head><body><div class="sheet">a</div></body></html>`, g, `<div id="wm">PREVIEW</div>`)
	if !strings.Contains(doc, "@page { size: 297.00mm 210.00mm; margin: 10mm 0mm 10mm 12.7mm; }") {
		t.Fatalf("page rule missing: %s", doc)
	}
	if strings.Index(doc, `data-platen="sheets"`) > strings.Index(doc, ".x{}") {
		t.Fatal("base style comes after the template's own, so the template cannot override it")
	}
	if !strings.Contains(doc, `<div id="wm">PREVIEW</div></body>`) {
		t.Fatal("overlay not placed at the end of the body")
	}
	if bare := Document("<p>hi</p>", g, ""); !strings.HasPrefix(bare, "<!DOCTYPE html>") || !strings.Contains(bare, "<body><p>hi</p></body>") {
		t.Fatalf("fragment not wrapped: %s", bare)
	}
}

// BenchmarkFillInvoice200 fills a 200-row invoice (schema validation is in
// schema.BenchmarkValidateInvoice200).
func BenchmarkFillInvoice200(b *testing.B) {
	html := `<html><body><div class="sheet"><h1>Invoice {{number}}</h1><table>
{{#each items}}<tr><td>{{inc @index}}</td><td>{{description}}</td><td>{{quantity}}</td>
<td>{{formatCurrency price}}</td><td>{{formatCurrency (multiply quantity price)}}</td></tr>{{/each}}
</table><p>Total {{formatCurrency (sum items "price")}}</p><p>{{formatDate issued format="long"}}</p></div></body></html>`
	c := checked(b, html, `{"currency":"EUR","locale":"de-DE"}`, nil)
	items := make([]any, 200)
	for i := range items {
		items[i] = map[string]any{"description": fmt.Sprintf("Line item %d", i), "quantity": 3.0, "price": 19.99}
	}
	data := map[string]any{"number": "INV-1", "issued": "2026-11-21", "items": items}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Fill(c, data, FillOptions{CacheKey: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}
