package layout

import (
	"encoding/base64"
	"os"
	"testing"

	"github.com/platen/platen/render/phantom/internal/fonttest"
)

// TestWebFontsMatchChromium prints text in @font-face fonts given as data:
// URIs (TrueType, WOFF and WOFF2, made here from the machine's fonts)
// with both engines (an OpenType/CFF web face is checked in package fonts:
// Chromium prints the URW fonts as Type 3 glyphs, whose word boxes
// pdftotext measures from another ascent, installed or not): each is used, at its descriptors' weight and
// style with what Blink synthesises, a family of the same name as an
// installed one is hidden, a face missing in a local() is skipped, and a
// unicode-range face sets only its characters.
func TestWebFontsMatchChromium(t *testing.T) {
	ttf, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
	if err != nil {
		t.Fatal(err)
	}
	uri := func(mime string, b []byte) string {
		return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
	}
	html := `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
@font-face { font-family: "Web TTF"; src: local("No Such Font"), url(` + uri("font/ttf", ttf) + `) format("truetype") }
@font-face { font-family: "Web WOFF"; src: url("` + uri("font/woff", fonttest.WOFF(ttf)) + `") format("woff") }
@font-face { font-family: "Web WOFF2"; src: url(` + uri("font/woff2", fonttest.WOFF2(ttf)) + `) format("woff2") }
@font-face { font-family: "Liberation Sans"; src: url(` + uri("font/ttf", ttf) + `) }
@font-face { font-family: "Latin Only"; src: url(` + uri("font/woff2", fonttest.WOFF2(ttf)) + `); unicode-range: U+0000-007F }
body { margin: 20px; font-size: 15px }
</style></head><body>
<p style="font-family:'Web TTF', Arial">TrueType web font: invoice totals are due within thirty days.</p>
<p style="font-family:'Web WOFF', Arial">WOFF web font, <b>bold synthesised</b> and <i>italic synthesised</i>.</p>
<p style="font-family:'Web WOFF2', Arial">WOFF2 web font with fallback Ωμέγα Привет 1234567890.</p>
<p style="font-family:'Liberation Sans'">A web family hides the installed one of its name.</p>
<p style="font-family:'Latin Only', 'Liberation Mono'">Latin from the web face, Ωμέγα from the next family.</p>
</body></html>`
	ltExpectClose(t, html, 0.1)
}
