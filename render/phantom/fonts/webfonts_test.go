package fonts

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"os"
	"runtime"
	"testing"

	"github.com/andybalholm/brotli"

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
	// A face of one range first: text outside it takes the next family,
	// though that family's face is the primary font (it has the space).
	ol2, _ := lib.WithWebFaces([]WebFace{{Family: "Greek Only", Data: ttf, WeightMin: 400, WeightMax: 400, Ranges: [][2]rune{{0x370, 0x3ff}}}})
	runs = ol2.NewShaper().Shape(Query{Families: []string{"Greek Only", "Liberation Mono"}, Weight: 400}, 16, "abc Ωμέγα", ShapeOptions{})
	if len(runs) != 2 || runs[0].Font.PostScriptName != "LiberationMono" || runs[1].Font.PostScriptName != "DejaVuSerif" {
		for _, r := range runs {
			t.Logf("run %d-%d in %s", r.Start, r.End, r.Font.PostScriptName)
		}
		t.Errorf("a Greek-only face first: %d runs", len(runs))
	}
	// The base library is untouched.
	if r := lib.Resolve(Query{Families: []string{"Brand TTF", "Liberation Mono"}, Weight: 400}); r.Font.PostScriptName != "LiberationMono" {
		t.Errorf("the machine's library resolves a web family: %s", r.Font.PostScriptName)
	}
}

// TestWebFontBombs: a WOFF or WOFF2 whose tables inflate past what they
// declare is refused after reading a little more than declared, never
// decompressed whole; a variable font (fvar) is refused too.
func TestWebFontBombs(t *testing.T) {
	zeros := make([]byte, 64<<20)
	// WOFF: one table declaring 1,000 bytes whose zlib stream holds 64 MB.
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(zeros)
	zw.Close()
	woff := make([]byte, 44+20)
	copy(woff, "wOFF\x00\x01\x00\x00")
	binary.BigEndian.PutUint16(woff[12:], 1)
	copy(woff[44:], "glyf")
	binary.BigEndian.PutUint32(woff[48:], 64)
	binary.BigEndian.PutUint32(woff[52:], uint32(z.Len()))
	binary.BigEndian.PutUint32(woff[56:], 1000)
	woff = append(woff, z.Bytes()...)
	binary.BigEndian.PutUint32(woff[8:], uint32(len(woff)))
	// WOFF2: one table declaring 1,000 bytes, a Brotli stream of 64 MB.
	var bz bytes.Buffer
	bw := brotli.NewWriterLevel(&bz, 1)
	bw.Write(zeros)
	bw.Close()
	woff2 := make([]byte, 48)
	copy(woff2, "wOF2\x00\x01\x00\x00")
	binary.BigEndian.PutUint16(woff2[12:], 1)
	binary.BigEndian.PutUint32(woff2[16:], 1000)
	binary.BigEndian.PutUint32(woff2[20:], uint32(bz.Len()))
	woff2 = append(woff2, 10|3<<6, 0x87, 0x68) // glyf, null transform, 1,000 (base 128)
	woff2 = append(woff2, bz.Bytes()...)
	binary.BigEndian.PutUint32(woff2[8:], uint32(len(woff2)))
	for name, b := range map[string][]byte{"WOFF": woff, "WOFF2": woff2} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := toSFNTSafe(b); err == nil {
			t.Errorf("%s bomb read", name)
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("%s bomb: allocated %d MB refusing it", name, grew>>20)
		}
	}
	// A table directory listing fvar marks a variable font.
	dir := make([]byte, 12+32)
	binary.BigEndian.PutUint16(dir[4:], 2)
	copy(dir[12:], "cmap")
	copy(dir[28:], "fvar")
	if !hasTable(dir, 0, "fvar") || hasTable(dir, 0, "gvar") {
		t.Error("hasTable misreads the directory")
	}
}
