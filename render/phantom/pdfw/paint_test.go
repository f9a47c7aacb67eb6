package pdfw

import (
	"bytes"
	"image"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// renderPage writes a one-page document of these ops and rasterises it at
// 96 dpi, where one CSS pixel is one image pixel.
func renderPage(t *testing.T, w, h float64, ops ...draw.Op) image.Image {
	t.Helper()
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: w, Height: h, Ops: ops}}}, Options{})
	validate(t, pdf)
	return render(t, path, 96)
}

type probe struct {
	name string
	x, y int
	want [3]int
}

func checkPixels(t *testing.T, img image.Image, probes []probe) {
	t.Helper()
	for _, p := range probes {
		if got := rgbAt(img, p.x, p.y); !near(got, p.want, 6) {
			t.Errorf("%s: pixel (%d, %d) is %v, want %v", p.name, p.x, p.y, got, p.want)
		}
	}
}

var (
	cWhite  = [3]int{255, 255, 255}
	cRed    = [3]int{255, 0, 0}
	cBlue   = [3]int{0, 0, 255}
	cBlack  = [3]int{0, 0, 0}
	cPurple = [3]int{128, 0, 127}
)

// TestPaths paints fills, strokes, clips and transforms and looks at pixels.
func TestPaths(t *testing.T) {
	ring := append(rect(300, 20, 100, 100), rect(325, 45, 50, 50)...)
	curve := draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{{X: 20, Y: 300}}},
		{Kind: draw.CubicTo, P: [3]draw.Point{{X: 20, Y: 250}, {X: 120, Y: 250}, {X: 120, Y: 300}}},
		{Kind: draw.Close},
	}
	img := renderPage(t, 500, 500,
		draw.Fill{Path: rect(20, 20, 100, 50), Color: red},
		// A clip that clips: a big blue square seen through a small window.
		draw.PushClip{Path: rect(160, 40, 40, 40)},
		draw.Fill{Path: rect(140, 20, 100, 100), Color: blue},
		draw.PopClip{},
		// Even-odd leaves the inner square empty, nonzero fills it.
		draw.Fill{Path: ring, Color: red, EvenOdd: true},
		draw.Fill{Path: append(rect(420, 20, 60, 60), rect(435, 35, 30, 30)...), Color: blue},
		// A dashed stroke: 20 on, 20 off, starting 10 into the pattern.
		draw.Stroke{Path: line(20, 150, 220, 150), Color: black, Width: 6, Dash: []float64{20, 20}, DashPhase: 10},
		// Round caps reach past the end points, butt caps do not.
		draw.Stroke{Path: line(260, 150, 300, 150), Color: black, Width: 10, Cap: 1},
		draw.Stroke{Path: line(340, 150, 380, 150), Color: black, Width: 10},
		// A transform: scale 2 about the origin, then shift.
		draw.PushTransform{M: [6]float64{2, 0, 0, 2, 20, 180}},
		draw.Fill{Path: rect(0, 0, 20, 10), Color: blue},
		draw.PopClip{},
		draw.Fill{Path: curve, Color: red},
		// Alpha: half-transparent red over blue.
		draw.Fill{Path: rect(200, 250, 60, 60), Color: blue},
		draw.Fill{Path: rect(200, 250, 60, 60), Color: draw.Color{R: 1, A: 0.5}},
	)
	checkPixels(t, img, []probe{
		{"red rectangle", 70, 45, cRed},
		{"outside the red rectangle", 70, 75, cWhite},
		{"inside the clip", 180, 60, cBlue},
		{"clipped away", 150, 30, cWhite},
		{"clipped away below", 180, 100, cWhite},
		{"even-odd ring", 310, 70, cRed},
		{"even-odd hole", 350, 70, cWhite},
		{"nonzero inner square filled", 450, 50, cBlue},
		{"dash on (10..30)", 20, 150, cBlack},
		{"dash off", 40, 150, cWhite},
		{"dash on again", 60, 150, cBlack},
		{"dash off again", 80, 150, cWhite},
		{"round cap", 257, 150, cBlack},
		{"butt cap", 337, 150, cWhite},
		{"butt line", 342, 150, cBlack},
		{"transformed fill", 55, 195, cBlue},
		{"outside the transformed fill", 65, 205, cWhite},
		{"curve's inside", 70, 285, cRed},
		{"above the curve", 30, 262, cWhite},
		{"alpha over blue", 230, 280, cPurple},
	})
}

// TestOpacityGroup checks that an opacity over several operations applies
// to them as a group: where two of its shapes overlap, the result is the
// same as where only one is, as in a browser.
func TestOpacityGroup(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	txt := sans.textOp(40, 20, 280, "Hi")
	txt.Color = red
	img := renderPage(t, 400, 400,
		draw.PushOpacity{Alpha: 0.5},
		draw.Fill{Path: rect(20, 20, 100, 100), Color: red},
		draw.Fill{Path: rect(70, 70, 100, 100), Color: red},
		draw.PopClip{},
		// One operation: the alpha is multiplied into it.
		draw.PushOpacity{Alpha: 0.5},
		draw.Fill{Path: rect(220, 20, 50, 50), Color: blue},
		draw.PopClip{},
		// Nested: 0.5 of a group holding red and 0.5 of blue over it.
		draw.PushOpacity{Alpha: 0.5},
		draw.Fill{Path: rect(220, 120, 50, 50), Color: red},
		draw.PushOpacity{Alpha: 0.5},
		draw.Fill{Path: rect(220, 120, 50, 50), Color: blue},
		draw.PopClip{},
		draw.PopClip{},
		// Text in a group, under a transform.
		draw.PushTransform{M: [6]float64{1, 0, 0, 1, 0, 0}},
		draw.PushOpacity{Alpha: 0.25},
		draw.Fill{Path: rect(20, 300, 10, 10), Color: red},
		txt,
		draw.PopClip{},
		draw.PopClip{},
	)
	half := [3]int{255, 128, 128}
	checkPixels(t, img, []probe{
		{"first shape alone", 40, 40, half},
		{"overlap", 100, 100, half},
		{"second shape alone", 150, 150, half},
		{"single operation", 240, 40, [3]int{128, 128, 255}},
		// Half of (red with half blue over it) over white.
		{"nested groups", 240, 140, [3]int{191, 128, 191}},
		{"quarter alpha", 25, 305, [3]int{255, 191, 191}},
	})
}

// TestImages embeds a raster with alpha, an opaque gray raster and a JPEG.
func TestImages(t *testing.T) {
	// 2×2 red at half alpha over a blue square.
	rgba := &draw.Image{Kind: draw.Raster, Width: 2, Height: 2, Components: 3,
		Data:  []byte{255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0},
		Alpha: []byte{128, 128, 128, 128}}
	// A gray gradient: top row black, bottom row white.
	gray := &draw.Image{Kind: draw.Raster, Width: 1, Height: 2, Components: 1, Data: []byte{0, 255}}
	jpeg := &draw.Image{Kind: draw.JPEG, Width: 8, Height: 8, Components: 3, Data: redJPEG(t)}
	img := renderPage(t, 300, 300,
		draw.Fill{Path: rect(10, 10, 80, 80), Color: blue},
		draw.DrawImage{Image: rgba, Rect: draw.Rect{X: 10, Y: 10, W: 80, H: 80}},
		draw.DrawImage{Image: gray, Rect: draw.Rect{X: 110, Y: 10, W: 40, H: 80}},
		draw.DrawImage{Image: jpeg, Rect: draw.Rect{X: 170, Y: 10, W: 40, H: 40}},
		draw.DrawImage{Image: rgba, Rect: draw.Rect{X: 10, Y: 110, W: 40, H: 40}}, // again: embedded once
		draw.DrawImage{Image: &draw.Image{Kind: draw.Raster}, Rect: draw.Rect{X: 0, Y: 0, W: 10, H: 10}},
	)
	checkPixels(t, img, []probe{
		{"alpha over blue", 50, 50, cPurple},
		{"alpha over white", 30, 130, [3]int{255, 127, 127}},
		{"image top row", 130, 20, cBlack},
		{"image bottom row", 130, 80, cWhite},
		{"jpeg", 190, 30, cRed},
		{"zero-size image skipped", 5, 5, cWhite},
	})
}

// TestFakeStyles looks at glyph ink: fake bold adds some, fake italic
// leans the top of an upright stem to the right.
func TestFakeStyles(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	plain := sans.textOp(100, 20, 100, "l")
	bold := sans.textOp(100, 120, 100, "l")
	bold.FakeBold = 3
	italic := sans.textOp(100, 220, 100, "l")
	italic.FakeItalic = true
	img := renderPage(t, 340, 140, plain, bold, italic)

	ink := func(x0, x1, y int) (n, first int) {
		first = -1
		for x := x0; x < x1; x++ {
			if c := rgbAt(img, x, y); c[0] < 128 {
				n++
				if first < 0 {
					first = x
				}
			}
		}
		return n, first
	}
	pn, pTop := ink(0, 110, 40)
	_, pBottom := ink(0, 110, 95)
	bn, _ := ink(110, 210, 40)
	_, iTop := ink(210, 340, 40)
	_, iBottom := ink(210, 340, 95)
	if pn == 0 || pTop != pBottom {
		t.Fatalf("plain stem: %d px of ink, left edge %d at the top and %d at the bottom", pn, pTop, pBottom)
	}
	if bn < pn+2 {
		t.Errorf("fake bold stem is %d px wide, plain %d", bn, pn)
	}
	// Skia's skew: x' = x - y*(-1/4); 55 px up gives about 14 px right.
	if lean := iTop - iBottom; lean < 11 || lean > 17 {
		t.Errorf("fake italic stem leans %d px over 55 px, want about 14", lean)
	}
}

// TestJPEGPassThrough checks a JPEG's XObject: the file as it is, with
// DCTDecode, its colour space, the inverting /Decode for Adobe CMYK, and
// one XObject however often it is drawn.
func TestJPEGPassThrough(t *testing.T) {
	data := redJPEG(t)
	cmyk := &draw.Image{Kind: draw.JPEG, Width: 8, Height: 8, Components: 4, InvertCMYK: true, Data: data}
	gray := &draw.Image{Kind: draw.JPEG, Width: 8, Height: 8, Components: 1, Data: data}
	_, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 100, Height: 100, Ops: []draw.Op{
		draw.DrawImage{Image: cmyk, Rect: draw.Rect{W: 10, H: 10}},
		draw.DrawImage{Image: cmyk, Rect: draw.Rect{X: 20, W: 10, H: 10}},
		draw.DrawImage{Image: gray, Rect: draw.Rect{X: 40, W: 10, H: 10}},
	}}}}, Options{})
	validate(t, pdf)
	ctx := readContext(t, pdf)
	x := ctx.XRefTable
	_, _, inh, err := x.PageDict(1, false)
	if err != nil || inh == nil {
		t.Fatal(err)
	}
	xo, _ := x.DereferenceDict(inh.Resources["XObject"])
	if len(xo) != 2 {
		t.Fatalf("XObjects %v, want two", xo)
	}
	want := map[string]string{"I0": "DeviceCMYK", "I1": "DeviceGray"}
	for name, cs := range want {
		sd, _, err := x.DereferenceStreamDict(xo[name])
		if err != nil || sd == nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := sd.NameEntry("ColorSpace"); got == nil || *got != cs {
			t.Errorf("%s colour space %v, want %s", name, got, cs)
		}
		if f := sd.NameEntry("Filter"); f == nil || *f != "DCTDecode" {
			t.Errorf("%s filter %v", name, f)
		}
		if !bytes.Equal(sd.Raw, data) {
			t.Errorf("%s: the JPEG was not passed through", name)
		}
		dec := sd.ArrayEntry("Decode")
		if (name == "I0") != (dec != nil && dec.String() == "[1 0 1 0 1 0 1 0]") {
			t.Errorf("%s /Decode %v", name, dec)
		}
	}
}

// TestMiterLimit strokes a sharp V (20°, miter length 5.8 widths): the
// default limit (4, Skia's) bevels it, Illustrator's 10 keeps the spike.
func TestMiterLimit(t *testing.T) {
	v := func(x float64) draw.Path {
		return draw.Path{
			{Kind: draw.MoveTo, P: [3]draw.Point{{X: x - 17.63, Y: 150}}},
			{Kind: draw.LineTo, P: [3]draw.Point{{X: x, Y: 50}}},
			{Kind: draw.LineTo, P: [3]draw.Point{{X: x + 17.63, Y: 150}}},
		}
	}
	img := renderPage(t, 300, 200,
		draw.Stroke{Path: v(50), Color: black, Width: 10},
		draw.Stroke{Path: v(150), Color: black, Width: 10, MiterLimit: 10},
		draw.Stroke{Path: v(250), Color: black, Width: 10, MiterLimit: 4},
	)
	checkPixels(t, img, []probe{
		{"default limit bevels", 50, 35, cWhite},
		{"limit 10 keeps the spike", 150, 35, cBlack},
		{"limit 4 bevels", 250, 35, cWhite},
		{"stroke body", 50, 60, cBlack},
	})
}

// TestOpacityInsideOpacity nests a group inside a multiplied opacity and
// the reverse: the alphas multiply once.
func TestOpacityInsideOpacity(t *testing.T) {
	img := renderPage(t, 200, 100,
		draw.PushOpacity{Alpha: 0.5}, // a group: two operations
		draw.Fill{Path: rect(10, 10, 30, 30), Color: red},
		draw.PushOpacity{Alpha: 0.5}, // a group: two operations
		draw.Fill{Path: rect(60, 10, 30, 30), Color: red},
		draw.Fill{Path: rect(60, 50, 30, 30), Color: red},
		draw.PopClip{},
		draw.PopClip{},
		draw.PushOpacity{Alpha: 0.5}, // a group holding a group
		draw.PushOpacity{Alpha: 0.5},
		draw.Fill{Path: rect(110, 10, 30, 30), Color: red},
		draw.Fill{Path: rect(150, 10, 30, 30), Color: red},
		draw.PopClip{},
		draw.PopClip{},
	)
	checkPixels(t, img, []probe{
		{"outer group alone", 20, 20, [3]int{255, 128, 128}},
		{"nested groups", 70, 20, [3]int{255, 191, 191}},
		{"nested groups, second", 70, 60, [3]int{255, 191, 191}},
		{"group in a group", 120, 20, [3]int{255, 191, 191}},
		{"its second operation", 160, 20, [3]int{255, 191, 191}},
	})
}
