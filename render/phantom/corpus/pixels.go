package corpus

import (
	"image"
)

// GrayTolerance is how far (of 255) a pixel's blurred gray may lie outside
// the range of the other blurred render's 3×3 neighbourhood before it counts
// as different. Measured on Chromium renders of text shifted by 0.25 to 1 px
// (fonts-families, justify-hyphens, rtl-arabic, ua-defaults): of the pixels
// that fall outside the range at all, all but a handful do so by 32 or less
// (antialiasing); a table rule one pixel heavier does so by 33 to 64, and
// glyphs in another face or weight by up to 255. 48 leaves antialiasing out
// and catches a line's change of weight in most of its pixels.
const GrayTolerance = 48

// Mask marks where two renders differ: 0 the same, MaskRefInk where the
// reference has ink the candidate lacks, MaskGotInk where the candidate
// has ink the reference lacks.
type Mask struct {
	W, H int
	Pix  []uint8
}

// Mask values.
const (
	MaskRefInk = 1
	MaskGotInk = 2
)

// PixelDiff compares two gray renders of a page. Both are first blurred
// with the 3×3 binomial kernel (1 2 1 / 2 4 2 / 1 2 1, over 16), which
// spreads a one-pixel stem over three pixels so that moving it by a
// fraction of a pixel changes its neighbours gradually instead of turning
// one black pixel into two grays. Then a pixel differs when its blurred gray
// lies more than tol outside the range (minimum to maximum) of the other
// blurred render's 3×3 neighbourhood around it, checked both ways: a glyph
// moved by up to a pixel, or antialiased differently, stays within the range
// of the values around it, while ink that is missing, extra, moved further
// or restyled does not. Renders of different sizes are compared on the
// larger canvas, white outside each. share is the differing pixels over the
// ink (pixels of either blurred render darker than 255−tol, which every
// differing pixel is, so share is at most 1); 0 when neither has ink. mask is returned when asked for, for the report.
func PixelDiff(ref, got *image.Gray, tol uint8, wantMask bool) (share float64, mask *Mask) {
	w := max(ref.Rect.Dx(), got.Rect.Dx())
	h := max(ref.Rect.Dy(), got.Rect.Dy())
	a := canvas(ref, w, h)
	b := canvas(got, w, h)
	a, b = blur3(a, w, h), blur3(b, w, h)
	aMin, aMax := minMax3(a, w, h)
	bMin, bMax := minMax3(b, w, h)
	if wantMask {
		mask = &Mask{W: w, H: h, Pix: make([]uint8, w*h)}
	}
	var mpix []uint8
	if mask != nil {
		mpix = mask.Pix
	}
	ink, diff := classify(a, b, aMin, aMax, bMin, bMax, int(tol), mpix)
	if ink == 0 {
		return 0, mask
	}
	return float64(diff) / float64(ink), mask
}

// The loops below are marked go:norace: they are arithmetic on slices
// their caller owns alone, the race detector has nothing to find in them,
// and it makes them about fifteen times slower, which TestCorpus (run with
// -race in CI) would pay on every page.

// classify counts the ink and the differing pixels, and marks them in mask
// when it is not nil.
//
//go:norace
func classify(a, b, aMin, aMax, bMin, bMax []uint8, t int, mask []uint8) (ink, diff int) {
	for i := range a {
		va, vb := int(a[i]), int(b[i])
		if min(va, vb) < 255-t {
			ink++
		}
		var m uint8
		switch {
		case va < int(bMin[i])-t || vb > int(aMax[i])+t:
			m = MaskRefInk
		case vb < int(aMin[i])-t || va > int(bMax[i])+t:
			m = MaskGotInk
		default:
			continue
		}
		diff++
		if mask != nil {
			mask[i] = m
		}
	}
	return ink, diff
}

// blur3 returns p blurred by the 3×3 binomial kernel, edges repeated.
//
//go:norace
func blur3(p []uint8, w, h int) []uint8 {
	row := make([]uint16, len(p))
	for y := 0; y < h; y++ {
		r := p[y*w : y*w+w]
		o := row[y*w : y*w+w]
		for x := 0; x < w; x++ {
			l, c, rr := r[max(x-1, 0)], r[x], r[min(x+1, w-1)]
			o[x] = uint16(l) + 2*uint16(c) + uint16(rr)
		}
	}
	out := make([]uint8, len(p))
	for y := 0; y < h; y++ {
		up, down := max(y-1, 0)*w, min(y+1, h-1)*w
		for x := 0; x < w; x++ {
			v := row[up+x] + 2*row[y*w+x] + row[down+x]
			out[y*w+x] = uint8((v + 8) / 16)
		}
	}
	return out
}

// canvas returns img's pixels on a w×h canvas, white where img does not
// reach; img's own pixels when it already is w×h and packed.
//
//go:norace
func canvas(img *image.Gray, w, h int) []uint8 {
	if img.Rect.Dx() == w && img.Rect.Dy() == h && img.Stride == w {
		return img.Pix[:w*h]
	}
	out := make([]uint8, w*h)
	for i := range out {
		out[i] = 255
	}
	for y := 0; y < img.Rect.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+img.Rect.Dx()]
		copy(out[y*w:], row)
	}
	return out
}

// minMax3 returns the minimum and maximum of each pixel's 3×3
// neighbourhood (clipped at the edges), in two separable passes.
//
//go:norace
func minMax3(p []uint8, w, h int) (lo, hi []uint8) {
	rowLo := make([]uint8, len(p))
	rowHi := make([]uint8, len(p))
	for y := 0; y < h; y++ {
		r := p[y*w : y*w+w]
		l, u := rowLo[y*w:y*w+w], rowHi[y*w:y*w+w]
		for x := 0; x < w; x++ {
			mn, mx := r[x], r[x]
			if x > 0 {
				mn, mx = min(mn, r[x-1]), max(mx, r[x-1])
			}
			if x+1 < w {
				mn, mx = min(mn, r[x+1]), max(mx, r[x+1])
			}
			l[x], u[x] = mn, mx
		}
	}
	lo = make([]uint8, len(p))
	hi = make([]uint8, len(p))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			mn, mx := rowLo[i], rowHi[i]
			if y > 0 {
				mn, mx = min(mn, rowLo[i-w]), max(mx, rowHi[i-w])
			}
			if y+1 < h {
				mn, mx = min(mn, rowLo[i+w]), max(mx, rowHi[i+w])
			}
			lo[i], hi[i] = mn, mx
		}
	}
	return lo, hi
}
