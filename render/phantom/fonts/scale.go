package fonts

import "math"

// scaler turns font units into pixels the way Chromium on Linux does, so
// that advances agree with Chromium's to the 1/65536 px.
//
// Skia sets the FreeType face's size in 26.6 fixed point (the CSS size
// truncated to 1/64 px), and with subpixel positioning reports each glyph's
// linear advance, which FreeType computes in 16.16 from that size. Blink
// hands that advance to HarfBuzz in 16.16 (truncated), while HarfBuzz
// scales the font's own positioning (kerning, mark offsets) with the
// unrounded size.
type scaler struct {
	xScale  int64 // FreeType's 16.16 scale: 26.6 size over units per em
	hbScale int64 // HarfBuzz's scale: the size in 16.16
	upem    int64
}

func newScaler(size float64, upem int) scaler {
	s := scaler{upem: int64(upem)}
	ppem26 := int64(float32(size) * 64) // SkScalarToFDot6 truncates
	s.xScale = ftDivFix(ppem26, s.upem)
	s.hbScale = int64(float32(size) * 65536)
	return s
}

// advance is a glyph's pen advance in px: its hmtx advance as FreeType
// scales it, plus HarfBuzz's adjustment (kerning) in font units.
func (s scaler) advance(hmtx, adjust int32) float64 {
	adv := ftMulDiv(int64(hmtx), s.xScale, 64)
	return float64(adv+s.hbEm(int64(adjust))) / 65536
}

// offset scales a HarfBuzz offset in font units to px.
func (s scaler) offset(v int32) float64 {
	return float64(s.hbEm(int64(v))) / 65536
}

// hbEm is HarfBuzz's em_scale: v * scale / upem, rounded, in 16.16.
func (s scaler) hbEm(v int64) int64 {
	if v == 0 {
		return 0
	}
	return int64(math.Round(float64(v) * float64(s.hbScale) / float64(s.upem)))
}

// ftDivFix is FreeType's FT_DivFix: (a << 16) / b, rounded.
func ftDivFix(a, b int64) int64 {
	if b == 0 {
		return 0x7FFFFFFF
	}
	neg := (a < 0) != (b < 0)
	a, b = absInt(a), absInt(b)
	q := ((a << 16) + b/2) / b
	if neg {
		return -q
	}
	return q
}

// ftMulDiv is FreeType's FT_MulDiv: a * b / c, rounded.
func ftMulDiv(a, b, c int64) int64 {
	if c == 0 {
		return 0x7FFFFFFF
	}
	neg := (a < 0) != (b < 0) != (c < 0)
	a, b, c = absInt(a), absInt(b), absInt(c)
	q := (a*b + c/2) / c
	if neg {
		return -q
	}
	return q
}

func absInt(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// blinkSize is the font size Blink sets text at: the CSS size truncated to
// 1/100 px in float32 (FontCache keys and creates platform fonts at that
// precision; Chromium's PDFs show 14.66 for 11pt, 14.666667px).
func blinkSize(size float64) float64 {
	if size <= 0 || math.IsNaN(size) {
		return 0
	}
	if size > maxFontSize {
		size = maxFontSize
	}
	r := float32(size) * 100
	return float64(float32(math.Trunc(float64(r))) / 100)
}

// maxFontSize bounds sizes so that fixed-point arithmetic cannot overflow.
const maxFontSize = 10000
