package fonts

import (
	"os"
	"testing"

	"github.com/platen/platen/render/phantom/internal/fonttest"
	"github.com/platen/platen/render/phantom/style"
)

// The web font tests read fonts the machine has (Debian's DejaVu and URW
// packages) and wrap them as WOFF and WOFF2 themselves: the project holds
// no font files.

const (
	testTTF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
	testOTF = "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf"
)

// TestWebFaces: a web font, as TrueType, OpenType/CFF, WOFF or WOFF2,
// resolves its family (hiding an installed family of the same name), is
// embedded from its own bytes, and matches weight and style by its
// descriptors with Blink's synthesis; unicode-range limits what it sets;
// bytes that are no font are left out and named.
func TestWebFaces(t *testing.T) {
	ttf, err := os.ReadFile(testTTF)
	if err != nil {
		t.Fatal(err)
	}
	otf, err := os.ReadFile(testOTF)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	ol, bad := lib.WithWebFaces([]WebFace{
		{Family: "Brand TTF", Data: ttf, WeightMin: 400, WeightMax: 400},
		{Family: "Brand WOFF", Data: fonttest.WOFF(ttf), WeightMin: 400, WeightMax: 400},
		{Family: "Brand WOFF2", Data: fonttest.WOFF2(ttf), WeightMin: 400, WeightMax: 400},
		{Family: "Brand CFF", Data: otf, WeightMin: 300, WeightMax: 500},
		{Family: "Liberation Sans", Data: ttf, WeightMin: 400, WeightMax: 400},
		{Family: "Latin Only", Data: ttf, WeightMin: 400, WeightMax: 400, Ranges: [][2]rune{{0, 0x7f}}},
		{Family: "Broken", Data: []byte("wOF2 this is not a font at all, not at all")},
	})
	if len(bad) != 1 || bad[0] != "Broken" {
		t.Errorf("unreadable faces %v, want [Broken]", bad)
	}
	sh := ol.NewShaper()
	for _, fam := range []string{"Brand TTF", "Brand WOFF", "Brand WOFF2", "Liberation Sans"} {
		r := ol.Resolve(Query{Families: []string{fam, "serif"}, Weight: 400})
		if r.Font == nil || r.Font.PostScriptName != "DejaVuSerif" || r.FakeBold || r.FakeItalic {
			t.Errorf("%s resolves to %+v", fam, r)
			continue
		}
		if len(r.Font.Data) == 0 || string(r.Font.Data[:4]) != "\x00\x01\x00\x00" || r.Font.Key[:4] != "web:" {
			t.Errorf("%s: the writer gets no SFNT of its own", fam)
		}
		runs := sh.Shape(Query{Families: []string{fam}, Weight: 400}, 16, "Invoice", ShapeOptions{})
		if len(runs) != 1 || runs[0].Font.PostScriptName != "DejaVuSerif" {
			t.Errorf("%s: shaped in %v", fam, runs)
		}
	}
	// Descriptors: 300-500 holds 400 and 500; 700 is synthesised; italic
	// too.
	for _, c := range []struct {
		weight           int
		st               style.FontStyle
		fakeBold, italic bool
	}{{400, style.FontNormal, false, false}, {500, style.FontNormal, false, false}, {700, style.FontNormal, true, false}, {400, style.FontItalic, false, true}} {
		r := ol.Resolve(Query{Families: []string{"Brand CFF"}, Weight: c.weight, Style: c.st})
		if r.Font == nil || r.Font.PostScriptName != "URWGothic-Book" || r.FakeBold != c.fakeBold || r.FakeItalic != c.italic {
			t.Errorf("Brand CFF at %d %v: %+v", c.weight, c.st, r)
		}
	}
	// unicode-range: Latin from the web face, Greek from the next family.
	runs := sh.Shape(Query{Families: []string{"Latin Only", "Liberation Mono"}, Weight: 400}, 16, "abcΩ", ShapeOptions{})
	if len(runs) != 2 || runs[0].Font.PostScriptName != "DejaVuSerif" || runs[1].Font.PostScriptName != "LiberationMono" {
		for _, r := range runs {
			t.Logf("run in %s", r.Font.PostScriptName)
		}
		t.Errorf("unicode-range: %d runs", len(runs))
	}
	// The base library is untouched.
	if r := lib.Resolve(Query{Families: []string{"Brand TTF", "Liberation Mono"}, Weight: 400}); r.Font.PostScriptName != "LiberationMono" {
		t.Errorf("the machine's library resolves a web family: %s", r.Font.PostScriptName)
	}
}
