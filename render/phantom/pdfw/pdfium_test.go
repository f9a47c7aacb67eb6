package pdfw

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/platen/platen/pdftemplate"
	"github.com/platen/platen/render/phantom/draw"
)

// pdfiumPage renders page 1 with PDFium (Chromium's PDF engine, compiled to
// WebAssembly; the compiled module is kept in the temporary directory, so
// only the first run pays the four seconds of compiling).
func pdfiumPage(t *testing.T, pdf []byte, dpi int) image.Image {
	t.Helper()
	cache := filepath.Join(os.TempDir(), "platen-pdfw-pdfium")
	start := time.Now()
	e, err := pdftemplate.Compiled(pdftemplate.Config{Instances: 1, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	t.Logf("PDFium ready in %v", time.Since(start))
	img, err := e.PageImage(pdf, 1, dpi, pdftemplate.DefaultLimits)
	if err != nil {
		t.Fatalf("PDFium cannot render the file: %v", err)
	}
	return img
}

// TestPDFiumDrawsTheSame renders a page using every kind of operation with
// PDFium and with poppler: two independent readers must agree on nearly
// every pixel. They differ in anti-aliasing along edges, and by a pixel
// where an edge or a glyph origin falls on a pixel boundary: the page's
// space is Chromium's (0.24 × 3.125, a hair under 1 at 96 dpi), which one
// reader rounds to the pixel before and the other does not; so a pixel
// differs when no pixel of the other render within one pixel of it is near.
func TestPDFiumDrawsTheSame(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	nimbus := loadFace(t, nimbusSans, 0)
	bold := sans.textOp(24, 20, 140, "Fake bold")
	bold.FakeBold = 1
	italic := nimbus.textOp(24, 200, 140, "Fake italic")
	italic.FakeItalic = true
	photo := &draw.Image{Kind: draw.Raster, Width: 30, Height: 20, Components: 3, Data: noisyGradient(30, 20, 3),
		Alpha: func() []byte {
			a := make([]byte, 600)
			for i := range a {
				a[i] = byte(i % 30 * 8)
			}
			return a
		}()}
	ops := []draw.Op{
		draw.Fill{Path: rect(0, 0, 400, 40), Color: draw.Color{R: 0.12, G: 0.23, B: 0.45, A: 1}},
		sans.textOp(20, 20, 28, "Invoice INV-0042"),
		nimbus.textOp(16, 20, 70, "CFF text: office 0123456789"),
		draw.PushClip{Path: rect(20, 80, 60, 30)},
		draw.Fill{Path: rect(0, 60, 200, 100), Color: red},
		draw.PopClip{},
		draw.Stroke{Path: line(100, 95, 380, 95), Color: black, Width: 3, Dash: []float64{9, 6}},
		bold, italic,
		draw.PushOpacity{Alpha: 0.5},
		draw.Fill{Path: rect(20, 160, 80, 40), Color: blue},
		draw.Fill{Path: rect(60, 180, 80, 40), Color: blue},
		draw.PopClip{},
		draw.Fill{Path: rect(200, 160, 120, 60), Color: draw.Color{G: 0.5, A: 1}},
		draw.DrawImage{Image: photo, Rect: draw.Rect{X: 200, Y: 160, W: 120, H: 60}},
		draw.LinearGradient{Path: rect(330, 100, 60, 120), X0: 330, Y0: 100, X1: 342, Y1: 112, Repeat: true,
			Stops: []draw.GradientStop{{Offset: 0, Color: red}, {Offset: 0.5, Color: red}, {Offset: 0.5, Color: blue}, {Offset: 1, Color: blue}}},
	}
	_, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 400, Height: 240, Ops: ops}}}, Options{})
	pop := renderBytes(t, pdf)
	pdfium := pdfiumPage(t, pdf, 96)
	if pop.Bounds() != pdfium.Bounds() {
		t.Fatalf("sizes differ: poppler %v, PDFium %v", pop.Bounds(), pdfium.Bounds())
	}
	r := pop.Bounds()
	far, ink := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			a := rgbAt(pop, x, y)
			if !nearAround(a, pdfium, x, y, 64) {
				far++
			}
			if a != [3]int{255, 255, 255} {
				ink++
			}
		}
	}
	if dir := os.Getenv("PDFW_DUMP"); dir != "" {
		for name, img := range map[string]image.Image{"poppler.png": pop, "pdfium.png": pdfium} {
			f, _ := os.Create(filepath.Join(dir, name))
			png.Encode(f, img)
			f.Close()
		}
	}
	t.Logf("%d of %d pixels differ by more than 64 levels (%d painted)", far, r.Dx()*r.Dy(), ink)
	if ink < 20000 || far > ink/50 {
		t.Errorf("poppler and PDFium disagree on %d pixels of %d painted", far, ink)
	}
}

// nearAround reports whether a pixel of img within one pixel of (x, y) is
// within tol of c.
func nearAround(c [3]int, img image.Image, x, y, tol int) bool {
	r := img.Bounds()
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if p := image.Pt(x+dx, y+dy); p.In(r) && near(c, rgbAt(img, p.X, p.Y), tol) {
				return true
			}
		}
	}
	return false
}
