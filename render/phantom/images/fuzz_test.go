package images

import (
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"net/url"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// FuzzLoad feeds data URIs and SVG text to Load and Draw: whatever the
// input, they return an image or an error and never panic, and every Draw
// balances its pushes and pops.
func FuzzLoad(f *testing.F) {
	m := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	m.SetNRGBA(0, 0, color.NRGBA{1, 2, 3, 4})
	png := encodePNG(f, m)
	jpg := encodeJPEG(f, image.NewGray(image.Rect(0, 0, 2, 2)))
	for _, s := range []string{
		uri("image/png", png),
		uri("image/jpeg", jpg),
		uri("image/jpeg", withSegment(jpg, exifAPP1(6, binary.BigEndian))),
		uri("image/jpeg", jpegMarkers(3, 3, 4, adobeAPP14)),
		"data:image/png," + url.PathEscape(string(png)),
		"data:,hello",
		"data:image/gif;base64,R0lGODlhAQABAAAAACw=",
		"http://example.com/a.png",
		svgURI(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" preserveAspectRatio="xMinYMax slice"><rect x="1" y="1" width="5" height="5" rx="1" fill="red" stroke="blue" stroke-dasharray="1 2"/></svg>`),
		svgURI(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10mm"><style>.a{fill:#0f0}g>.b{opacity:.5}</style><defs><symbol id="s" viewBox="0 0 1 1"><circle r="1"/></symbol><clipPath id="c"><rect width="5" height="5"/></clipPath></defs><g class="a" transform="rotate(30 5 5) skewX(10)"><use xlink:href="#s" width="3" height="3" class="b" clip-path="url(#c)"/><path d="M0 0 a5 5 0 1 0 10 0 Q1 2 3 4 T5 6 s1 2 3 4z"/><polyline points="1,2 3,4 5"/></g><svg x="1" width="50%" viewBox="0 0 2 2"><ellipse rx="1" ry="auto"/></svg><text>hi</text></svg>`),
		svgURI(`<svg xmlns="http://www.w3.org/2000/svg"><linearGradient id="g" href="#g"/><rect width="1" height="1" fill="url(#g) red"/><use href="#u" id="u"/></svg>`),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		img, err := Load(src)
		if err != nil {
			if img != nil {
				t.Fatalf("image and error: %v", err)
			}
			return
		}
		if img.Raster == nil && img.SVG == nil {
			t.Fatal("image without content")
		}
		if r := img.Raster; r != nil {
			checkRaster(t, r)
			return
		}
		if img.Width < 0 || img.Height < 0 || img.Ratio < 0 {
			t.Fatalf("size %vx%v ratio %v", img.Width, img.Height, img.Ratio)
		}
		for _, box := range []draw.Rect{{W: 100, H: 50}, {X: 3, Y: 4, W: 1, H: 1000}} {
			depth := 0
			for _, op := range img.SVG.Draw(box) {
				switch op.(type) {
				case draw.PushClip, draw.PushOpacity, draw.PushTransform:
					depth++
				case draw.PopClip:
					depth--
					if depth < 0 {
						t.Fatal("PopClip without a push")
					}
				}
			}
			if depth != 0 {
				t.Fatalf("%d pushes left open", depth)
			}
		}
	})
}

// FuzzSVG feeds SVG text (not a URI) to the converter, which is where most
// of the parsing is.
func FuzzSVG(f *testing.F) {
	f.Add(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L10 10z" stroke="red" stroke-width="1%"/></svg>`)
	f.Add(`<svg xmlns="http://www.w3.org/2000/svg"><style>@media print{a{b:c}} *{fill:hsl(1turn 50% 50%)}</style><g style="fill:inherit;stroke:currentColor"><rect width="1e3" height="1e-3"/></g></svg>`)
	f.Add(`<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg" width="&a;"><switch><g requiredExtensions="x"/><circle r="2"/></switch></svg>`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, inline := range []bool{false, true} {
			img, _, err := decodeSVG([]byte(s), inline)
			if err == nil && img.SVG == nil {
				t.Fatal("no SVG")
			}
		}
		if _, err := Load("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(s))); err != nil {
			return
		}
	})
}

func checkRaster(t *testing.T, r *draw.Image) {
	if r.Width <= 0 || r.Height <= 0 || int64(r.Width)*int64(r.Height) > MaxPixels {
		t.Fatalf("raster %dx%d", r.Width, r.Height)
	}
	switch r.Kind {
	case draw.Raster:
		if r.Components != 1 && r.Components != 3 || len(r.Data) != r.Width*r.Height*r.Components {
			t.Fatalf("raster of %d components, %d bytes for %dx%d", r.Components, len(r.Data), r.Width, r.Height)
		}
		if r.Alpha != nil && len(r.Alpha) != r.Width*r.Height {
			t.Fatalf("alpha of %d bytes", len(r.Alpha))
		}
	case draw.JPEG:
		if r.Components != 1 && r.Components != 3 && r.Components != 4 {
			t.Fatalf("JPEG of %d components", r.Components)
		}
	}
}
