package images

import (
	"errors"
	"fmt"
	"image"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/platen/platen/render/phantom/draw"
)

func svgURI(s string) string { return "data:image/svg+xml," + url.PathEscape(s) }

func loadSVG(t *testing.T, s string) *Image {
	t.Helper()
	img, err := Load(svgURI(s))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if img.SVG == nil || img.Raster != nil {
		t.Fatalf("not an SVG image: %+v", img)
	}
	return img
}

// painted is a Fill or Stroke as it lands on the page: its path's bounding
// box (of end and control points) with every transform applied, its colour
// with every opacity multiplied in, and the clips in force.
type painted struct {
	kind   string // "fill" or "stroke"
	box    draw.Rect
	color  draw.Color
	width  float64 // stroke width, scaled by the transform's x scale
	clips  []draw.Rect
	fillOp draw.Fill
	strkOp draw.Stroke
}

func apply(m [6]float64, p draw.Point) draw.Point {
	return draw.Point{X: m[0]*p.X + m[2]*p.Y + m[4], Y: m[1]*p.X + m[3]*p.Y + m[5]}
}

func mul(m, n [6]float64) [6]float64 { // m then n: n applied after m... n × m
	return [6]float64{
		n[0]*m[0] + n[2]*m[1], n[1]*m[0] + n[3]*m[1],
		n[0]*m[2] + n[2]*m[3], n[1]*m[2] + n[3]*m[3],
		n[0]*m[4] + n[2]*m[5] + n[4], n[1]*m[4] + n[3]*m[5] + n[5],
	}
}

func bounds(p draw.Path, m [6]float64) draw.Rect {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range p {
		k := map[draw.SegmentKind]int{draw.MoveTo: 1, draw.LineTo: 1, draw.CubicTo: 3}[s.Kind]
		for _, q := range s.P[:k] {
			q = apply(m, q)
			minX, minY, maxX, maxY = min(minX, q.X), min(minY, q.Y), max(maxX, q.X), max(maxY, q.Y)
		}
	}
	return draw.Rect{X: minX, Y: minY, W: maxX - minX, H: maxY - minY}
}

// flatten replays ops and checks that pushes and pops balance.
func flatten(t *testing.T, ops []draw.Op) []painted {
	t.Helper()
	type frame struct {
		m     [6]float64
		alpha float64
		clips []draw.Rect
	}
	st := []frame{{m: [6]float64{1, 0, 0, 1, 0, 0}, alpha: 1}}
	var out []painted
	for _, op := range ops {
		top := st[len(st)-1]
		switch o := op.(type) {
		case draw.PushTransform:
			top.m = mul(o.M, top.m)
			st = append(st, top)
		case draw.PushOpacity:
			top.alpha *= o.Alpha
			st = append(st, top)
		case draw.PushClip:
			top.clips = append(slices.Clip(top.clips), bounds(o.Path, top.m))
			st = append(st, top)
		case draw.PopClip:
			if len(st) == 1 {
				t.Fatalf("PopClip without a push")
			}
			st = st[:len(st)-1]
		case draw.Fill:
			c := o.Color
			c.A *= top.alpha
			out = append(out, painted{kind: "fill", box: bounds(o.Path, top.m), color: c, clips: top.clips, fillOp: o})
		case draw.Stroke:
			c := o.Color
			c.A *= top.alpha
			out = append(out, painted{kind: "stroke", box: bounds(o.Path, top.m), color: c, width: o.Width * math.Hypot(top.m[0], top.m[1]), clips: top.clips, strkOp: o})
		default:
			t.Fatalf("unexpected op %T", op)
		}
	}
	if len(st) != 1 {
		t.Fatalf("%d pushes left open", len(st)-1)
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func nearRect(a, b draw.Rect) bool {
	return near(a.X, b.X) && near(a.Y, b.Y) && near(a.W, b.W) && near(a.H, b.H)
}

func nearColor(a, b draw.Color) bool {
	return math.Abs(a.R-b.R) < 0.002 && math.Abs(a.G-b.G) < 0.002 && math.Abs(a.B-b.B) < 0.002 && math.Abs(a.A-b.A) < 0.002
}

// TestSVGLaidOutThenSnapped draws an <img> 40.4×20.2 px of a 40×20 viewBox
// into the 41×20 px its box snaps to: as in Chromium's PDF (which writes
// 1.0246 0 0 1 10.008 51 for the same markup) the drawing is stretched to
// the snapped box, not centred in it at scale 1.
func TestSVGLaidOutThenSnapped(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect x="0" y="0" width="40" height="20" fill="#000"/></svg>`)
	got := flatten(t, img.SVG.DrawLaidOut(draw.Rect{X: 10, Y: 51, W: 41, H: 20}, 40.4, 20.2))
	if len(got) != 1 {
		t.Fatalf("painted %+v", got)
	}
	if want := (draw.Rect{X: 10, Y: 51, W: 41, H: 20}); !nearRect(got[0].box, want) {
		t.Errorf("the viewBox's rect lands at %+v, want the whole snapped box %+v", got[0].box, want)
	}
}

func TestSVGRectLandsInTheBox(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="10" y="10" width="20" height="20" fill="#ff0000"/></svg>`)
	// A square viewBox in a 200x100 box at (5, 7): meet scales by 1 and
	// centres it, 50px in.
	got := flatten(t, img.SVG.Draw(draw.Rect{X: 5, Y: 7, W: 200, H: 100}))
	if len(got) != 1 || got[0].kind != "fill" {
		t.Fatalf("painted %+v", got)
	}
	if want := (draw.Rect{X: 65, Y: 17, W: 20, H: 20}); !nearRect(got[0].box, want) {
		t.Errorf("rect at %+v, want %+v", got[0].box, want)
	}
	if !nearColor(got[0].color, draw.Color{R: 1, A: 1}) {
		t.Errorf("colour %+v", got[0].color)
	}
	if len(got[0].clips) != 1 || !nearRect(got[0].clips[0], draw.Rect{X: 5, Y: 7, W: 200, H: 100}) {
		t.Errorf("clips %+v, want the box", got[0].clips)
	}
}

func TestSVGPreserveAspectRatio(t *testing.T) {
	const rect = `<rect x="0" y="0" width="100" height="50"/>`
	box := draw.Rect{X: 0, Y: 0, W: 300, H: 300}
	for _, tc := range []struct {
		par  string
		want draw.Rect
	}{
		{"", draw.Rect{X: 0, Y: 75, W: 300, H: 150}},
		{"xMidYMid meet", draw.Rect{X: 0, Y: 75, W: 300, H: 150}},
		{"xMinYMin", draw.Rect{X: 0, Y: 0, W: 300, H: 150}},
		{"xMaxYMax meet", draw.Rect{X: 0, Y: 150, W: 300, H: 150}},
		{"none", draw.Rect{X: 0, Y: 0, W: 300, H: 300}},
		{"xMidYMid slice", draw.Rect{X: -150, Y: 0, W: 600, H: 300}},
		{"xMinYMid slice", draw.Rect{X: 0, Y: 0, W: 600, H: 300}},
		{"xMaxYMin slice", draw.Rect{X: -300, Y: 0, W: 600, H: 300}},
		{"bogus", draw.Rect{X: 0, Y: 75, W: 300, H: 150}},
	} {
		attr := ""
		if tc.par != "" {
			attr = fmt.Sprintf(` preserveAspectRatio=%q`, tc.par)
		}
		img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"`+attr+`>`+rect+`</svg>`)
		got := flatten(t, img.SVG.Draw(box))
		if len(got) != 1 || !nearRect(got[0].box, tc.want) {
			t.Errorf("%q: %+v, want %+v", tc.par, got, tc.want)
			continue
		}
		// Always clipped to the box (slice overflows it).
		if len(got[0].clips) != 1 || !nearRect(got[0].clips[0], box) {
			t.Errorf("%q: clips %+v", tc.par, got[0].clips)
		}
	}
}

func TestSVGWithoutViewBoxStretchesItsSize(t *testing.T) {
	// Chromium draws an SVG without a viewBox at its width and height and
	// stretches that to the box; an axis without a size is not scaled.
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect x="10" y="10" width="10" height="10"/></svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 200, H: 200}))
	if want := (draw.Rect{X: 20, Y: 40, W: 20, H: 40}); len(got) != 1 || !nearRect(got[0].box, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	img = loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100"><rect x="10" y="10" width="10" height="10"/></svg>`)
	got = flatten(t, img.SVG.Draw(draw.Rect{W: 200, H: 300}))
	if want := (draw.Rect{X: 20, Y: 10, W: 20, H: 10}); len(got) != 1 || !nearRect(got[0].box, want) {
		t.Errorf("width only: got %+v, want %+v", got, want)
	}
}

func TestSVGNestedTransforms(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
		<g transform="translate(10,0)"><g transform="scale(2)">
			<rect x="1" y="1" width="1" height="1" transform="translate(0 5)"/>
		</g></g>
		<rect x="0" y="0" width="10" height="20" transform="rotate(90) translate(5)"/>
		<rect x="0" y="0" width="10" height="10" transform="matrix(1 0 0 1 50 60) bogus(1)"/>
	</svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 100, H: 100}))
	if len(got) != 3 {
		t.Fatalf("painted %+v", got)
	}
	if want := (draw.Rect{X: 12, Y: 12, W: 2, H: 2}); !nearRect(got[0].box, want) {
		t.Errorf("nested: %+v, want %+v", got[0].box, want)
	}
	// rotate(90) then translate(5): x' = -y, y' = x + 5.
	if want := (draw.Rect{X: -20, Y: 5, W: 20, H: 10}); !nearRect(got[1].box, want) {
		t.Errorf("rotate: %+v, want %+v", got[1].box, want)
	}
	// An invalid transform list is ignored whole, as in Chromium.
	if want := (draw.Rect{X: 0, Y: 0, W: 10, H: 10}); !nearRect(got[2].box, want) {
		t.Errorf("invalid transform: %+v, want %+v", got[2].box, want)
	}
}

func TestSVGStyles(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
		<style>.a{fill:#00f} g .b { stroke: red; stroke-width: 4px } #c{fill:green !important} rect.d{fill-opacity:.5}</style>
		<rect class="a" width="1" height="1"/>
		<g fill="yellow"><rect class="b" width="2" height="2"/></g>
		<rect id="c" style="fill:blue" width="3" height="3"/>
		<rect class="a d" style="fill:rgb(0 0 0 / 50%)" width="4" height="4"/>
		<g color="#0f0" opacity="0.5"><rect fill="currentColor" width="5" height="5" stroke="none"/></g>
		<rect fill="none" stroke="#123456" stroke-opacity="0.25" stroke-width="2mm" stroke-dasharray="1,2,3" stroke-linecap="round" stroke-linejoin="bevel" stroke-miterlimit="10" width="6" height="6"/>
		<rect fill="hsl(120, 100%, 25%)" width="7" height="7" visibility="hidden"/>
		<rect display="none" width="8" height="8"/>
	</svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 100, H: 100}))
	var fills, strokes []painted
	for _, p := range got {
		if p.kind == "fill" {
			fills = append(fills, p)
		} else {
			strokes = append(strokes, p)
		}
	}
	wantFills := []draw.Color{
		{B: 1, A: 1},           // .a
		{R: 1, G: 1, A: 1},     // inherited yellow
		{G: 128.0 / 255, A: 1}, // !important beats the style attribute
		{A: 0.25},              // style attribute's alpha times fill-opacity
		{G: 1, A: 0.5},         // currentColor, under group opacity
	}
	if len(fills) != len(wantFills) {
		t.Fatalf("%d fills: %+v", len(fills), fills)
	}
	for i, w := range wantFills {
		if !nearColor(fills[i].color, w) {
			t.Errorf("fill %d: %+v, want %+v", i, fills[i].color, w)
		}
	}
	if len(strokes) != 2 {
		t.Fatalf("%d strokes: %+v", len(strokes), strokes)
	}
	if s := strokes[0]; !nearColor(s.color, draw.Color{R: 1, A: 1}) || s.width != 4 || s.strkOp.MiterLimit != 0 {
		t.Errorf("class stroke: %+v", s)
	}
	s := strokes[1].strkOp
	if !nearColor(s.Color, draw.Color{R: 0x12 / 255.0, G: 0x34 / 255.0, B: 0x56 / 255.0, A: 0.25}) || !near(s.Width, 2*96/25.4) ||
		s.Cap != 1 || s.Join != 2 || !slices.Equal(s.Dash, []float64{1, 2, 3, 1, 2, 3}) || s.MiterLimit != 10 {
		t.Errorf("stroke: %+v", s)
	}
	if len(img.SVG.Dropped) != 0 {
		t.Errorf("dropped %v", img.SVG.Dropped)
	}
}

func TestSVGShapesAndArcs(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
		<circle cx="50" cy="50" r="10"/>
		<ellipse cx="20" cy="20" rx="10" ry="5"/>
		<rect x="0" y="0" width="40" height="20" rx="30"/>
		<line x1="1" y1="2" x2="30" y2="40" stroke="black"/>
		<polyline points="0,0 10,10 20,0 30" fill="none" stroke="black"/>
		<polygon points="0,0 10,0 5,8"/>
		<path d="M10 50 A 10 10 0 0 1 30 50"/>
		<path d="M0,0 L10,10 L 20,  foo 30 30"/>
		<circle r="-1"/><rect width="0" height="5"/>
	</svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 100, H: 100}))
	want := []struct {
		kind string
		box  draw.Rect
	}{
		{"fill", draw.Rect{X: 40, Y: 40, W: 20, H: 20}},
		{"fill", draw.Rect{X: 10, Y: 15, W: 20, H: 10}},
		{"fill", draw.Rect{X: 0, Y: 0, W: 40, H: 20}},
		{"stroke", draw.Rect{X: 1, Y: 2, W: 29, H: 38}},
		{"stroke", draw.Rect{X: 0, Y: 0, W: 20, H: 10}},
		{"fill", draw.Rect{X: 0, Y: 0, W: 10, H: 8}},
		{"fill", draw.Rect{X: 10, Y: 40, W: 20, H: 10}}, // the upper half circle, sweep 1
		{"fill", draw.Rect{X: 0, Y: 0, W: 10, H: 10}},   // drawn up to the error
	}
	if len(got) != len(want) {
		t.Fatalf("painted %d: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].kind != w.kind || !nearRectTol(got[i].box, w.box, 0.01) {
			t.Errorf("%d: %s %+v, want %s %+v", i, got[i].kind, got[i].box, w.kind, w.box)
		}
	}
	// The arc ends exactly at its end point and passes through the top.
	arc := got[6].fillOp.Path
	if end := arc[len(arc)-1].P[2]; !near(end.X, 30) || !near(end.Y, 50) {
		t.Errorf("arc ends at %+v", end)
	}
}

func nearRectTol(a, b draw.Rect, tol float64) bool {
	return math.Abs(a.X-b.X) < tol && math.Abs(a.Y-b.Y) < tol && math.Abs(a.W-b.W) < tol && math.Abs(a.H-b.H) < tol
}

func TestSVGPathCommands(t *testing.T) {
	// Relative, implicit and shorthand commands, and a new subpath after Z.
	p := parsePathData("m10 10 20 0 0 20z l5 5 H0 V0 h1 v1 c1 1 2 2 3 3 s4 4 5 5 Q1 1 2 2 T 5 5 t1-1", 100)
	kinds := ""
	for _, s := range p {
		kinds += map[draw.SegmentKind]string{draw.MoveTo: "M", draw.LineTo: "L", draw.CubicTo: "C", draw.Close: "Z"}[s.Kind]
	}
	if kinds != "MLLZMLLLLLCCCCC" {
		t.Errorf("segments %s", kinds)
	}
	if m := p[4]; m.Kind != draw.MoveTo || m.P[0] != (draw.Point{X: 10, Y: 10}) {
		t.Errorf("after Z, the subpath restarts at the start point: %+v", m)
	}
	if l := p[5]; l.P[0] != (draw.Point{X: 15, Y: 15}) {
		t.Errorf("relative l after z: %+v", l)
	}
	// s reflects the previous control point: c ends at (4,4) with its second
	// control at (3,3), so s starts with control (5,5).
	if c := p[11]; c.P[0] != (draw.Point{X: 5, Y: 5}) || c.P[2] != (draw.Point{X: 9, Y: 9}) {
		t.Errorf("s: %+v", c)
	}
	for _, bad := range []string{"", "L10 10", "M", "M10", "10 10", "M1e999 5", "MNaN 1"} {
		if p := parsePathData(bad, 100); len(p) != 0 {
			t.Errorf("%q: %+v", bad, p)
		}
	}
	if p := parsePathData(strings.Repeat("L1 1", 1000), 10); len(p) != 0 {
		t.Errorf("no moveto: %d segments", len(p))
	}
	if p := parsePathData("M0 0"+strings.Repeat("L1 1", 1000), 10); len(p) > 11 {
		t.Errorf("segment budget ignored: %d", len(p))
	}
}

func TestSVGUseSymbolAndNestedSVG(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="200">
		<defs>
			<symbol id="s" viewBox="0 0 10 10"><rect width="10" height="10" fill="currentColor"/></symbol>
			<rect id="r" width="5" height="5"/>
		</defs>
		<use xlink:href="#s" x="10" y="20" width="40" height="40" color="blue"/>
		<use href="#r" x="100" y="100" fill="red"/>
		<use href="#nothing"/><use href="http://example.com/a.svg#r"/>
		<svg x="50" y="0" width="20" height="10" viewBox="0 0 2 1"><rect width="2" height="1"/></svg>
	</svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 200, H: 200}))
	if len(got) != 3 {
		t.Fatalf("painted %+v", got)
	}
	if !nearRect(got[0].box, draw.Rect{X: 10, Y: 20, W: 40, H: 40}) || !nearColor(got[0].color, draw.Color{B: 1, A: 1}) {
		t.Errorf("symbol: %+v", got[0])
	}
	if len(got[0].clips) != 2 || !nearRect(got[0].clips[1], draw.Rect{X: 10, Y: 20, W: 40, H: 40}) {
		t.Errorf("symbol clip: %+v", got[0].clips)
	}
	if !nearRect(got[1].box, draw.Rect{X: 100, Y: 100, W: 5, H: 5}) || !nearColor(got[1].color, draw.Color{R: 1, A: 1}) {
		t.Errorf("use of rect: %+v", got[1])
	}
	if !nearRect(got[2].box, draw.Rect{X: 50, Y: 0, W: 20, H: 10}) {
		t.Errorf("nested svg: %+v", got[2])
	}
}

func TestSVGClipPath(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
		<clipPath id="c"><rect x="10" y="10" width="20" height="20" transform="translate(5 0)"/></clipPath>
		<clipPath id="bb" clipPathUnits="objectBoundingBox"><rect width="0.5" height="1"/></clipPath>
		<clipPath id="empty"></clipPath>
		<rect width="100" height="100" clip-path="url(#c)"/>
		<rect x="40" y="40" width="20" height="10" clip-path="url(#bb)"/>
		<rect width="100" height="100" clip-path="url(#empty)"/>
		<rect width="7" height="7" clip-path="url(#missing)"/>
	</svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 100, H: 100}))
	if len(got) != 3 {
		t.Fatalf("painted %+v", got)
	}
	if len(got[0].clips) != 2 || !nearRect(got[0].clips[1], draw.Rect{X: 15, Y: 10, W: 20, H: 20}) {
		t.Errorf("clip: %+v", got[0].clips)
	}
	if len(got[1].clips) != 2 || !nearRect(got[1].clips[1], draw.Rect{X: 40, Y: 40, W: 10, H: 10}) {
		t.Errorf("bounding box clip: %+v", got[1].clips)
	}
	if len(got[2].clips) != 1 || !nearRect(got[2].box, draw.Rect{W: 7, H: 7}) {
		t.Errorf("a missing clip path is ignored: %+v", got[2])
	}
}

func TestSVGDropped(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
		<style>rect:hover{fill:red}</style>
		<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f" stop-opacity="0.999"/></linearGradient>
		<filter id="f"/></defs>
		<text x="1" y="10" rotate="10">Hello</text>
		<rect width="10" height="10" fill="url(#g)" filter="url(#f)"/>
		<path d="M0 0 L5 5" marker-end="url(#m)" stroke="black" fill="none"/>
		<foreignObject width="5" height="5"/>
		<line x2="5" stroke="red" vector-effect="non-scaling-stroke"/>
		<rect width="1" height="1" fill="url(#nope) green"/>
	</svg>`)
	want := []string{DropCSSSelector, DropText, DropFilter, DropGradient, DropMarker, DropForeignObject, DropVectorEffect}
	if !slices.Equal(img.SVG.Dropped, want) {
		t.Errorf("dropped %v, want %v", img.SVG.Dropped, want)
	}
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 100, H: 100}))
	// The gradient is drawn as the mean of its stops; the missing paint
	// server falls back to green.
	if len(got) != 4 || !nearColor(got[0].color, draw.Color{R: 0.5, B: 0.5, A: 1}) || !nearColor(got[3].color, draw.Color{G: 128.0 / 255, A: 1}) {
		t.Errorf("painted %+v", got)
	}
}

func TestSVGIntrinsicSize(t *testing.T) {
	// As measured in Chromium (naturalWidth x naturalHeight of an <img>).
	for _, tc := range []struct {
		attrs       string
		w, h, ratio float64
	}{
		{``, 300, 150, 0},
		{`viewBox="0 0 200 100"`, 0, 0, 2},
		{`width="100" viewBox="0 0 200 100"`, 100, 50, 2},
		{`height="100" viewBox="0 0 200 100"`, 200, 100, 2},
		{`width="100"`, 100, 150, 0},
		{`width="10mm" height="1in"`, 10 * 96 / 25.4, 96, 10 * 96 / 25.4 / 96},
		{`width="50%" height="100%" viewBox="0 0 40 20"`, 0, 0, 2},
		{`width="2em" height="3ex"`, 32, 3 * xHeight, 32 / (3 * xHeight)},
		{`width="120px" height="60pt" viewBox="0 0 1 1"`, 120, 80, 1.5},
		{`width="0" height="10"`, 300, 10, 0},
		{`viewBox="0 0 -1 5"`, 300, 150, 0},
	} {
		img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" `+tc.attrs+`/>`)
		if !near(img.Width, tc.w) || !near(img.Height, tc.h) || !near(img.Ratio, tc.ratio) {
			t.Errorf("%s: %vx%v ratio %v, want %vx%v ratio %v", tc.attrs, img.Width, img.Height, img.Ratio, tc.w, tc.h, tc.ratio)
		}
	}
}

func TestSVGIllustratorExport(t *testing.T) {
	img := loadSVG(t, `<?xml version="1.0" encoding="iso-8859-1"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
	<!ENTITY ns_svg "http://www.w3.org/2000/svg">
]>
<svg version="1.1" xmlns="&ns_svg;" viewBox="0 0 10 10"><!-- comment -->
<style type="text/css"><![CDATA[ .st0{fill:#E30613;} ]]></style>
<rect class="st0" width="10" height="10"/></svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 10, H: 10}))
	if len(got) != 1 || !nearColor(got[0].color, draw.Color{R: 0xE3 / 255.0, G: 0x06 / 255.0, B: 0x13 / 255.0, A: 1}) {
		t.Errorf("painted %+v", got)
	}
}

func TestSVGErrors(t *testing.T) {
	deep := strings.Repeat("<g>", maxSVGDepth+1) + strings.Repeat("</g>", maxSVGDepth+1)
	many := strings.Repeat("<rect/>", maxSVGElements+1)
	// Each level uses the one before ten times: 10^8 rects.
	bomb := `<rect id="l0" width="1" height="1"/>`
	for i := 1; i <= 8; i++ {
		bomb += fmt.Sprintf(`<g id="l%d">`, i) + strings.Repeat(fmt.Sprintf(`<use href="#l%d"/>`, i-1), 10) + `</g>`
	}
	// The same with nothing to draw: the visits are bounded too.
	emptyBomb := strings.ReplaceAll(bomb, `<rect id="l0" width="1" height="1"/>`, `<g id="l0"/>`)
	for _, tc := range []struct {
		name, src string
		want      error
	}{
		{"empty use bomb", `<svg xmlns="http://www.w3.org/2000/svg">` + emptyBomb + `</svg>`, ErrSVGTooComplex},
		{"no namespace", `<svg width="10" height="10"/>`, ErrCorrupt},
		{"not svg", `<html xmlns="http://www.w3.org/2000/svg"/>`, ErrCorrupt},
		{"malformed", `<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>`, ErrCorrupt},
		{"empty", ``, ErrCorrupt},
		{"too deep", `<svg xmlns="http://www.w3.org/2000/svg">` + deep + `</svg>`, ErrSVGTooComplex},
		{"too many elements", `<svg xmlns="http://www.w3.org/2000/svg">` + many + `</svg>`, ErrSVGTooComplex},
		{"use bomb", `<svg xmlns="http://www.w3.org/2000/svg">` + bomb + `</svg>`, ErrSVGTooComplex},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := Load(svgURI(tc.src))
			if !errors.Is(err, tc.want) || img != nil {
				t.Errorf("Load = %v, %v; want %v", img, err, tc.want)
			}
		})
	}
}

func TestSVGUseCyclesEnd(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
		<g id="a"><rect width="1" height="1"/><use href="#b"/></g>
		<g id="b"><use href="#a"/></g>
		<use href="#self" id="self"/>
	</svg>`)
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 10, H: 10}))
	if len(got) == 0 || len(got) > 2*maxUseDepth {
		t.Errorf("%d painted", len(got))
	}
}

func TestSVGDrawIsStable(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>`)
	a := img.SVG.Draw(draw.Rect{W: 10, H: 10})
	b := img.SVG.Draw(draw.Rect{X: 5, W: 20, H: 20})
	if len(a) != len(b) || img.SVG.Draw(draw.Rect{W: 0, H: 10}) != nil {
		t.Errorf("Draw: %d and %d ops", len(a), len(b))
	}
	if a[1].(draw.PushTransform).M == b[1].(draw.PushTransform).M {
		t.Errorf("the second Draw changed nothing")
	}
}

func TestInlineSVG(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<p>x<svg viewBox="0 0 10 10" width="20"><g id="a"><rect fill="#f00" width="10" height="10"/></g><use xlink:href="#a" x="1"/><text>&nbsp;Hi</text></svg></p>`))
	if err != nil {
		t.Fatal(err)
	}
	var svg *html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "svg" {
			svg = n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	var sb strings.Builder
	if err := html.Render(&sb, svg); err != nil {
		t.Fatal(err)
	}
	img, err := InlineSVG(sb.String())
	if err != nil {
		t.Fatalf("InlineSVG(%s): %v", sb.String(), err)
	}
	if img.Width != 20 || img.Height != 20 || len(img.SVG.Dropped) != 0 {
		t.Errorf("image %vx%v dropped %v", img.Width, img.Height, img.SVG.Dropped)
	}
	got := flatten(t, img.SVG.Draw(draw.Rect{W: 20, H: 20}))
	if len(got) != 2 || !nearColor(got[0].color, draw.Color{R: 1, A: 1}) || !nearRect(got[1].box, draw.Rect{X: 2, W: 20, H: 20}) {
		t.Errorf("painted %+v", got)
	}
	if again, _ := InlineSVG(sb.String()); again != img {
		t.Errorf("not cached")
	}
}

func TestSVGImage(t *testing.T) {
	m := image.NewGray(image.Rect(0, 0, 4, 2))
	png := pngURI(t, m)
	inner := svgURI(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="blue"/></svg>`)
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
		<image xlink:href="`+png+`" x="10" y="10" width="40" height="40"/>
		<image href="`+png+`" x="0" y="60" height="10"/>
		<image href="`+png+`" x="60" y="0" width="40" height="40" preserveAspectRatio="xMinYMin slice"/>
		<image href="`+inner+`" x="60" y="60" width="20" height="10"/>
		<image href="http://example.com/a.png" width="10" height="10"/>
	</svg>`)
	var images []draw.DrawImage
	var fills []painted
	depth := 0
	for _, op := range img.SVG.Draw(draw.Rect{W: 100, H: 100}) {
		switch o := op.(type) {
		case draw.DrawImage:
			images = append(images, o)
		case draw.PushClip, draw.PushTransform, draw.PushOpacity:
			depth++
		case draw.PopClip:
			depth--
		}
	}
	fills = flatten(t, slices.DeleteFunc(img.SVG.Draw(draw.Rect{W: 100, H: 100}), func(op draw.Op) bool { _, ok := op.(draw.DrawImage); return ok }))
	if depth != 0 || len(images) != 3 || len(fills) != 1 {
		t.Fatalf("images %+v fills %+v", images, fills)
	}
	for i, want := range []draw.Rect{
		{X: 10, Y: 20, W: 40, H: 20}, // meet: a 2:1 picture centred in a square
		{X: 0, Y: 60, W: 20, H: 10},  // width from the ratio
		{X: 60, Y: 0, W: 80, H: 40},  // slice: overflows, clipped
	} {
		if !nearRect(images[i].Rect, want) || images[i].Image.Width != 4 {
			t.Errorf("image %d at %+v, want %+v", i, images[i].Rect, want)
		}
	}
	if !nearRect(fills[0].box, draw.Rect{X: 65, Y: 60, W: 10, H: 10}) {
		t.Errorf("SVG image at %+v", fills[0].box)
	}
}

// logoSVG is a business logo of the usual kind: classes, paths with arcs
// and curves, a transformed group, text-free.
const logoSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="160" viewBox="0 0 320 160">
  <style>.b{fill:#0b3d91}.r{stroke:#fc3d21;stroke-width:6}</style>
  <rect class="b r" x="4" y="4" width="312" height="152" rx="16"/>
  <circle cx="70" cy="80" r="50" fill="#fff" fill-opacity="0.9"/>
  <ellipse cx="70" cy="80" rx="45" ry="18" fill="none" class="r" transform="rotate(-30 70 80)"/>
  <g transform="translate(140,40) scale(1.5)" fill="#fff">
    <path d="M0 0 L20 0 L20 10 L10 10 L10 40 L0 40 Z"/>
    <path d="M30 0 h20 v40 h-20 z M35 5 v30 h10 v-30 z" fill-rule="evenodd"/>
    <path d="M60 40 Q70 0 80 40 T100 40" fill="none" stroke="#fff" stroke-width="3"/>
  </g>
  <line x1="140" y1="130" x2="300" y2="130" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-dasharray="10 6"/>
  <polyline points="140,145 160,138 180,148 200,136 220,146" fill="none" stroke="#fc0" stroke-width="3"/>
  <path d="M230 100 a20 20 0 1 1 40 0 a20 10 30 0 1 -40 0" fill="#8fd" stroke="#000"/>
</svg>`

func BenchmarkSVGConvert(b *testing.B) {
	for b.Loop() {
		if _, _, err := decodeSVG([]byte(logoSVG), false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSVGLoadCachedAndDraw(b *testing.B) {
	src := svgURI(logoSVG)
	for b.Loop() {
		img, err := Load(src)
		if err != nil {
			b.Fatal(err)
		}
		img.SVG.Draw(draw.Rect{X: 10, Y: 10, W: 160, H: 80})
	}
}
