package app

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"
)

// onWhite is draw.Over onto white paper, written out for speed: both give
// the same pixels, whatever the alpha, and on a picture that is part of a
// larger one (its rows do not start at Pix[0]).
func TestOnWhiteIsOverWhite(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	whole := image.NewRGBA(image.Rect(0, 0, 37, 23))
	for y := range 23 {
		for x := range 37 {
			a := uint8(rng.IntN(256))
			if x%5 == 0 {
				a = []uint8{0, 255}[y%2]
			}
			c := func() uint8 { return uint8(rng.IntN(int(a) + 1)) } // premultiplied: c <= a
			whole.SetRGBA(x, y, color.RGBA{c(), c(), c(), a})
		}
	}
	src := whole.SubImage(image.Rect(3, 2, 30, 20)).(*image.RGBA)
	want := image.NewRGBA(src.Bounds())
	draw.Draw(want, want.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(want, want.Bounds(), src, src.Bounds().Min, draw.Over)
	outside := whole.RGBAAt(0, 0)
	onWhite(src)
	for y := src.Bounds().Min.Y; y < src.Bounds().Max.Y; y++ {
		for x := src.Bounds().Min.X; x < src.Bounds().Max.X; x++ {
			if g, w := src.RGBAAt(x, y), want.RGBAAt(x, y); g != w {
				t.Fatalf("(%d,%d): %v, draw.Over gives %v", x, y, g, w)
			}
		}
	}
	if whole.RGBAAt(0, 0) != outside {
		t.Fatal("onWhite changed a pixel outside the picture")
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"invoce", "invoice", 9, 1}, {"invoice", "invoice", 9, 0}, {"recipt", "receipt", 9, 1},
		{"letter", "invoice", 9, 7}, {"letter", "invoice", 3, 3}, {"", "abc", 9, 3}, {"kitten", "sitting", 9, 3},
	} {
		if got := editDistance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
