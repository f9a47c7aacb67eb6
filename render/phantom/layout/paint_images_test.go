package layout

import (
	"encoding/base64"
	"math"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// TestSVGImageStretchedToSnappedBox places an SVG <img> 40.4×20.2 px at a
// fractional position: Chromium clips it to the box snapped to whole pixels
// (10, 51, 41, 20) and stretches the drawing laid out at 40.4×20.2 onto it,
// its PDF writing the matrix 1.0246 0 0 1 10.008 51 (Chromium 156).
func TestSVGImageStretchedToSnappedBox(t *testing.T) {
	svg := base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="2" height="20"/></svg>`))
	d, err := layoutString(t, `<!DOCTYPE html><body style="margin:0"><img style="position:absolute;left:10.3px;top:50.6px;width:40.4px;height:20.2px" src="data:image/svg+xml;base64,`+svg+`">`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var m [6]float64
	found := false
	for _, op := range d.Pages[0].Ops {
		if tr, ok := op.(draw.PushTransform); ok {
			m, found = tr.M, true
		}
	}
	want := [6]float64{1.0246, 0, 0, 1, 10.008, 51}
	for i := range m {
		if !found || math.Abs(m[i]-want[i]) > 0.001 {
			t.Fatalf("the SVG's transform is %v, want %v", m, want)
		}
	}
}

// TestInlineSVGTakesThePageColour: an inline <svg> is drawn from its own
// markup, its currentColor the color the page's CSS gives it, and a "#"
// in its attributes (a fragment mark in a URL) is a colour.
func TestInlineSVGTakesThePageColour(t *testing.T) {
	d, err := layoutString(t, `<!DOCTYPE html><style>.ok{color:#0a0}</style><p class="ok"><svg width="20" height="20" viewBox="0 0 20 20" fill="currentColor"><path d="M0 0h20v20z"/></svg>`+
		`<svg width="20" height="20" viewBox="0 0 20 20"><path fill="#0000ff" d="M0 0h20v20z"/></svg></p>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []draw.Color
	for _, op := range d.Pages[0].Ops {
		if f, ok := op.(draw.Fill); ok {
			got = append(got, f.Color)
		}
	}
	want := []draw.Color{{R: 0, G: 0xaa / 255.0, B: 0, A: 1}, {B: 1, A: 1}}
	if len(got) != len(want) {
		t.Fatalf("fills %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i].R-want[i].R)+math.Abs(got[i].G-want[i].G)+math.Abs(got[i].B-want[i].B)+math.Abs(got[i].A-want[i].A) > 0.01 {
			t.Errorf("fill %d is %v, want %v", i, got[i], want[i])
		}
	}
}
