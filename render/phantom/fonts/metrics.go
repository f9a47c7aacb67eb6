package fonts

import "math"

// Metrics are a face's vertical metrics at one size, in px, rounded as
// Blink's SimpleFontData rounds them on Linux.
type Metrics struct {
	// Ascent and Descent (positive, below the baseline) are whole pixels;
	// LineGap is the font's, unrounded.
	Ascent, Descent, LineGap float64
	// LineSpacing is the height of a line with line-height: normal:
	// round(ascent) + round(descent) + round(lineGap).
	LineSpacing float64

	XHeight, CapHeight float64
	// UnderlineOffset is below the baseline (positive down) as Blink
	// places underlines; StrikeoutOffset above it (positive up).
	UnderlineOffset, UnderlineThickness float64
	StrikeoutOffset, StrikeoutThickness float64
	// ZeroWidth is the advance of "0" (for ch), SpaceWidth of " ".
	ZeroWidth, SpaceWidth float64
}

// skRound is SkScalarRoundToScalar: floor(x + 0.5).
func skRound(x float64) float64 { return math.Floor(x + 0.5) }

// emMetrics are the face's line metrics in em, as Skia's FreeType port
// reports them (SkScalerContext_FreeType::generateFontMetrics): the OS/2
// typographic metrics when USE_TYPO_METRICS is set, else FreeType's
// ascender and descender (hhea, or typo, or win when hhea is zero).
func (in *sfntInfo) emMetrics() (ascent, descent, leading float64) {
	upem := float64(in.unitsPerEm)
	if in.hasOS2 && in.os2Version != 0xFFFF && in.fsSelection&(1<<7) != 0 {
		return float64(in.typoAscent) / upem, -float64(in.typoDescent) / upem, math.Max(0, float64(in.typoLineGap)/upem)
	}
	a, d, g := in.hheaAscent, in.hheaDescent, in.hheaLineGap
	if a == 0 && d == 0 && in.hasOS2 {
		a, d, g = in.typoAscent, in.typoDescent, in.typoLineGap
		if a == 0 && d == 0 {
			a, d, g = in.winAscent, -in.winDescent, 0
		}
	}
	return float64(a) / upem, -float64(d) / upem, math.Max(0, float64(g)/upem)
}

// computeMetrics derives a face's Metrics at size px; zero and space are
// the advances (in px) of "0" and " ". subpixel is Blink's
// FontRenderStyle.use_subpixel_positioning, which moves a pixel from the
// ascent to a rounded-down descent; Chromium prints without it (its PDFs'
// baselines say so), though its glyph advances are fractional.
// xTop and hTop are the tops of "x" and "H" in font units, for faces whose
// OS/2 table has no x-height or cap height (Skia measures the glyphs).
func computeMetrics(in *sfntInfo, size, zero, space float64, subpixel bool, xTop, hTop int) Metrics {
	a, d, g := in.emMetrics()
	rawA, rawD := a*size, d*size
	var m Metrics
	m.Ascent, m.Descent = skRound(rawA), skRound(rawD)
	// Blink (FontMetrics::AscentDescentWithHacks): with subpixel
	// positioning, a descent rounded down borrows a pixel from the ascent.
	if subpixel && m.Descent < rawD && m.Ascent >= 1 {
		m.Descent++
		m.Ascent--
	}
	m.LineGap = g * size
	m.LineSpacing = math.Round(m.Ascent) + math.Round(m.Descent) + math.Round(m.LineGap)
	upem := float64(in.unitsPerEm)
	// Skia's fXHeight and fCapHeight: OS/2 (version 2 and up), else the
	// top of the hinted glyph, which FreeType's light hinting puts on a
	// whole pixel: Chromium's ex for DejaVu (OS/2 version 1) is the glyph's
	// height rounded up (6, 8, 9 px at 10.5, 13.33, 16 px). Blink falls
	// back to 0.56 of the ascent for x-height.
	switch {
	case in.xHeight > 0:
		m.XHeight = float64(in.xHeight) / upem * size
	case xTop > 0:
		m.XHeight = math.Ceil(float64(xTop)/upem*size - 1e-9)
	default:
		m.XHeight = m.Ascent * 0.56
	}
	switch {
	case in.capHeight > 0:
		m.CapHeight = float64(in.capHeight) / upem * size
	case hTop > 0:
		m.CapHeight = math.Ceil(float64(hTop)/upem*size - 1e-9)
	default:
		m.CapHeight = rawA * 0.7
	}
	m.UnderlineThickness = float64(in.underlineThick) / upem * size
	m.UnderlineOffset = -float64(in.underlinePos) / upem * size
	if in.strikeoutSize > 0 {
		m.StrikeoutThickness = float64(in.strikeoutSize) / upem * size
		m.StrikeoutOffset = float64(in.strikeoutPos) / upem * size
	} else {
		m.StrikeoutThickness = m.UnderlineThickness
		m.StrikeoutOffset = m.XHeight / 2
	}
	m.ZeroWidth, m.SpaceWidth = zero, space
	return m
}
