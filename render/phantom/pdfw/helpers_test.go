package pdfw

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-text/typesetting/di"
	gtfont "github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"github.com/platen/platen/render/phantom/draw"
	"github.com/tdewolff/font"
	"golang.org/x/image/math/fixed"
)

// Fonts the tests use; they come with fonts-liberation, fonts-dejavu-core
// and (for CFF) fonts-urw-base35 and fonts-lmodern (scripts/install-deps.sh --test).
const (
	liberationSans = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
	liberationBold = "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"
	liberationSerf = "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"
	dejaVuSans     = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
	nimbusSans     = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
	nimbusRoman    = "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf"
	lmRoman        = "/usr/share/texmf/fonts/opentype/public/lm/lmroman10-regular.otf" // fonts-lmodern
)

type testFace struct {
	font *draw.Font
	face *gtfont.Face
}

var testFaces struct {
	sync.Mutex
	m map[string]*testFace
}

// loadFace returns the font at path (index in a collection) as layout would
// hand it over, once per process as draw requires.
func loadFace(t testing.TB, path string, index int) *testFace {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("font missing (run scripts/install-deps.sh --test): %v", err)
	}
	return faceFromData(t, path, data, index)
}

func faceFromData(t testing.TB, key string, data []byte, index int) *testFace {
	t.Helper()
	k := fmt.Sprintf("%s#%d", key, index)
	testFaces.Lock()
	defer testFaces.Unlock()
	if f, ok := testFaces.m[k]; ok {
		return f
	}
	face0 := data
	if bytes.HasPrefix(data, []byte("ttcf")) {
		var err error
		if face0, err = extractFace(data, index); err != nil {
			t.Fatal(err)
		}
	}
	s, err := font.ParseSFNT(face0, 0)
	if err != nil {
		t.Fatalf("parse %s: %v", k, err)
	}
	var face *gtfont.Face
	if bytes.HasPrefix(data, []byte("ttcf")) {
		faces, err := gtfont.ParseTTC(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		face = faces[index]
	} else if face, err = gtfont.ParseTTF(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	ps := strings.TrimSuffix(filepath.Base(key), filepath.Ext(key))
	capH := 0
	if s.OS2 != nil {
		capH = int(s.OS2.SCapHeight)
	}
	df := &draw.Font{
		Key: k, Data: data, Index: index, PostScriptName: ps,
		UnitsPerEm: int(s.Head.UnitsPerEm),
		Ascent:     int(s.Hhea.Ascender), Descent: int(s.Hhea.Descender), CapHeight: capH,
		BBox: [4]int{int(s.Head.XMin), int(s.Head.YMin), int(s.Head.XMax), int(s.Head.YMax)},
	}
	tf := &testFace{font: df, face: face}
	if testFaces.m == nil {
		testFaces.m = map[string]*testFace{}
	}
	testFaces.m[k] = tf
	return tf
}

// shape shapes text with HarfBuzz as layout does: glyphs in visual order,
// advances in px, the cluster's text on its first glyph.
func (f *testFace) shape(size float64, text string, rtl bool) []draw.Glyph {
	runes := []rune(text)
	dir := di.DirectionLTR
	if rtl {
		dir = di.DirectionRTL
	}
	script := language.Latin
	for _, r := range runes {
		if s := language.LookupScript(r); s != language.Common && s != language.Inherited {
			script = s
			break
		}
	}
	out := (&shaping.HarfbuzzShaper{}).Shape(shaping.Input{
		Text: runes, RunStart: 0, RunEnd: len(runes), Direction: dir, Face: f.face,
		Size: fixed.Int26_6(size * 64), Script: script, Language: language.NewLanguage("en"),
	})
	gs := make([]draw.Glyph, len(out.Glyphs))
	prevCluster := -1
	for i, g := range out.Glyphs {
		gs[i] = draw.Glyph{
			ID:      uint16(g.GlyphID),
			Advance: float64(g.Advance) / 64,
			XOffset: float64(g.XOffset) / 64,
			YOffset: -float64(g.YOffset) / 64,
		}
		if ci := g.TextIndex(); ci != prevCluster {
			gs[i].Text = string(runes[ci : ci+g.RunesCount()])
			prevCluster = ci
		}
	}
	return gs
}

// textOp is a run of text at (x, y) in black.
func (f *testFace) textOp(size, x, y float64, text string) draw.Text {
	return draw.Text{Font: f.font, Size: size, X: x, Y: y, Glyphs: f.shape(size, text, false), Color: draw.Color{A: 1}}
}

func width(gs []draw.Glyph) float64 {
	w := 0.0
	for _, g := range gs {
		w += g.Advance
	}
	return w
}

// writePDF writes doc into a temporary file and returns its path.
func writePDF(t testing.TB, doc *draw.Document, opt Options) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, doc, opt); err != nil {
		t.Fatalf("Write: %v", err)
	}
	path := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, buf.Bytes()
}

func run(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "Error") || strings.Contains(s, "Syntax Warning") {
		t.Errorf("%s %v complains:\n%s", name, args, s)
	}
	return string(out)
}

type word struct {
	xMin, yMin, xMax, yMax float64
	text                   string
}

var wordRE = regexp.MustCompile(`<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>`)

// words is pdftotext -bbox's word list of the file (in pt, y down).
func words(t testing.TB, path string) []word {
	t.Helper()
	out := run(t, "pdftotext", "-bbox", path, "-")
	var ws []word
	for _, m := range wordRE.FindAllStringSubmatch(out, -1) {
		f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		ws = append(ws, word{f(m[1]), f(m[2]), f(m[3]), f(m[4]), htmlUnescape(m[5])})
	}
	return ws
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(s)
}

// render rasterises page 1 of the file at dpi with pdftoppm.
func render(t testing.TB, path string, dpi int) image.Image {
	t.Helper()
	prefix := filepath.Join(filepath.Dir(path), "page")
	run(t, "pdftoppm", "-r", strconv.Itoa(dpi), "-png", "-singlefile", path, prefix)
	f, err := os.Open(prefix + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// rgbAt is the 8-bit colour of pixel (x, y).
func rgbAt(img image.Image, x, y int) [3]int {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
}

func near(c [3]int, want [3]int, tol int) bool {
	for i := range c {
		if d := c[i] - want[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

// rect is a closed rectangle path.
func rect(x, y, w, h float64) draw.Path {
	return draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{{X: x, Y: y}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x + w, Y: y}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x + w, Y: y + h}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x, Y: y + h}}},
		{Kind: draw.Close},
	}
}

func line(x0, y0, x1, y1 float64) draw.Path {
	return draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{{X: x0, Y: y0}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x1, Y: y1}}},
	}
}

var (
	black = draw.Color{A: 1}
	red   = draw.Color{R: 1, A: 1}
	blue  = draw.Color{B: 1, A: 1}
	white = draw.Color{R: 1, G: 1, B: 1, A: 1}
)

const a4W, a4H = 793.7007874015749, 1122.51968503937

// redJPEG is an 8×8 red JPEG file.
func redJPEG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+3] = 255, 255
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// renderBytes rasterises page 1 of a PDF held in memory at 96 dpi.
func renderBytes(t testing.TB, pdf []byte) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	return render(t, path, 96)
}

func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgbAt(a, x, y) != rgbAt(b, x, y) {
				return false
			}
		}
	}
	return true
}
