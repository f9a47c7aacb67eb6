package pdfw

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// unpredict undoes appendPredicted as a PDF reader does (PNG filters).
func unpredict(t *testing.T, b []byte, w, h, n int) []byte {
	stride := w * n
	out := make([]byte, 0, stride*h)
	var prev []byte
	for y := 0; y < h; y++ {
		f, row := b[0], b[1:1+stride]
		b = b[1+stride:]
		cur := make([]byte, stride)
		for i := range row {
			var a, bb, c int
			if i >= n {
				a = int(cur[i-n])
			}
			if prev != nil {
				bb = int(prev[i])
				if i >= n {
					c = int(prev[i-n])
				}
			}
			p := 0
			switch f {
			case 0:
			case 1:
				p = a
			case 2:
				p = bb
			case 3:
				p = (a + bb) / 2
			case 4:
				p = paeth(a, bb, c)
			default:
				t.Fatalf("filter %d", f)
			}
			cur[i] = row[i] + byte(p)
		}
		out = append(out, cur...)
		prev = cur
	}
	return out
}

// noisyGradient is photograph-like: smooth, with noise.
func noisyGradient(w, h, n int) []byte {
	rng := rand.New(rand.NewSource(1))
	px := make([]byte, 0, w*h*n)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := 0; k < n; k++ {
				px = append(px, byte((x*255/w+y*(k+1))/2+rng.Intn(6)))
			}
		}
	}
	return px
}

func TestPredictorRoundTrip(t *testing.T) {
	var tmp [4][]byte
	for _, n := range []int{1, 3} {
		px := noisyGradient(37, 23, n)
		// Hard edges too, so that every filter wins somewhere.
		for i := 0; i < len(px); i += 97 {
			px[i] = 255
		}
		enc := appendPredicted(nil, px, 37, 23, n, &tmp)
		if got := unpredict(t, enc, 37, 23, n); !bytes.Equal(got, px) {
			t.Errorf("%d components: the filtered rows do not decode to the pixels", n)
		}
	}
}

// TestPredictedRasters draws a photograph-like raster (which the writer
// stores PNG-filtered) and a flat one (stored plain), four device pixels
// per image pixel: the colours come back exactly at the pixels' centres.
func TestPredictedRasters(t *testing.T) {
	const w, h, k = 60, 40, 4
	photo := &draw.Image{Kind: draw.Raster, Width: w, Height: h, Components: 3, Data: noisyGradient(w, h, 3)}
	flat := &draw.Image{Kind: draw.Raster, Width: w, Height: h, Components: 1, Data: bytes.Repeat([]byte{90}, w*h),
		Alpha: bytes.Repeat([]byte{255}, w*h)}
	flat.Alpha[0] = 0
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 2 * w * k, Height: h * k, Ops: []draw.Op{
		draw.DrawImage{Image: photo, Rect: draw.Rect{X: 0, Y: 0, W: w * k, H: h * k}},
		draw.DrawImage{Image: flat, Rect: draw.Rect{X: w * k, Y: 0, W: w * k, H: h * k}},
	}}}}, Options{})
	validate(t, pdf)
	if !bytes.Contains(pdf, []byte("/DecodeParms<</Predictor 15/Colors 3/Columns 60>>")) {
		t.Error("the photograph was not stored PNG-filtered")
	}
	img := render(t, path, 96)
	for _, p := range [][2]int{{0, 0}, {59, 0}, {30, 20}, {5, 39}, {59, 39}} {
		o := (p[1]*w + p[0]) * 3
		want := [3]int{int(photo.Data[o]), int(photo.Data[o+1]), int(photo.Data[o+2])}
		if got := rgbAt(img, p[0]*k+k/2, p[1]*k+k/2); !near(got, want, 1) {
			t.Errorf("photo pixel %v: %v, want %v", p, got, want)
		}
	}
	if got := rgbAt(img, w*k+w*k/2, h*k/2); !near(got, [3]int{90, 90, 90}, 1) {
		t.Errorf("flat gray: %v", got)
	}
}
