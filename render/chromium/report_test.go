package chromium

import (
	"html"
	"reflect"
	"testing"
)

func TestFontListsOfADocument(t *testing.T) {
	css := `<style>@font-face{font-family:"Brand";src:url(data:font/woff2;base64,AAAA)}
@font-face{font-family:Remote;src:url(https://fonts.example.com/r.woff2)}
h1{font-family:"Helvetica Neue", Arial, sans-serif !important}
p{font:italic bold 12px/1.4 'Open Sans', serif}
.x{font-family:inherit}</style>
<div style="font-family: &quot;Brand&quot;, sans-serif">b</div><span style='font: 10pt Remote, monospace'>r</span>`
	css = html.UnescapeString(css)
	got := fontLists(css)
	want := [][]string{{"Helvetica Neue", "Arial", "sans-serif"}, {"Brand", "sans-serif"}, {"Open Sans", "serif"}, {"Remote", "monospace"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lists %q, want %q", got, want)
	}
	if web := webFonts(css); !web["brand"] || web["remote"] {
		t.Fatalf("web fonts %v: only the one carried as a data: URI loads", web)
	}
}

func TestUsedFontsOfAPDF(t *testing.T) {
	pdf := []byte("<</Type/Font/Subtype/Type0/BaseFont/AAAAAA+LiberationSans>>\n<</BaseFont /BCDEFG+Open#20Sans-Bold>> <</BaseFont/LiberationSans>>")
	if got := usedFonts(pdf, nil); !reflect.DeepEqual(got, []string{"LiberationSans", "Open Sans-Bold"}) {
		t.Fatalf("used %q", got)
	}
}
