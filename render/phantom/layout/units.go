package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// Chromium lays out in LayoutUnit: fixed point with 1/64 px. These helpers
// convert floats the ways Blink does, so that positions accumulate the same
// rounding.

const luScale = 64

// lu truncates towards zero to 1/64 px: LayoutUnit(float).
func lu(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	v = clampLU(v)
	return math.Trunc(v*luScale) / luScale
}

// luCeil rounds up to 1/64 px: LayoutUnit::FromFloatCeil.
func luCeil(v float64) float64 {
	v = clampLU(v)
	return math.Ceil(v*luScale-1e-7) / luScale
}

// luFloor rounds down to 1/64 px: LayoutUnit::FromFloatFloor.
func luFloor(v float64) float64 {
	v = clampLU(v)
	return math.Floor(v*luScale+1e-7) / luScale
}

// luRound rounds to the nearest 1/64 px: LayoutUnit::FromFloatRound.
func luRound(v float64) float64 {
	v = clampLU(v)
	return math.Round(v*luScale) / luScale
}

// luHalf is LayoutUnit / 2 (integer division of the raw value, towards
// zero).
func luHalf(v float64) float64 {
	raw := math.Round(v * luScale)
	return math.Trunc(raw/2) / luScale
}

// luDiv is LayoutUnit / int.
func luDiv(v float64, n int) float64 {
	if n == 0 {
		return 0
	}
	raw := math.Round(v * luScale)
	return math.Trunc(raw/float64(n)) / luScale
}

// maxLU bounds lengths as LayoutUnit saturates (about 33 million px).
const maxLU = 33554431

func clampLU(v float64) float64 {
	if v > maxLU {
		return maxLU
	}
	if v < -maxLU {
		return -maxLU
	}
	return v
}

// length resolves a computed length to LayoutUnit against base for
// percentages; keywords give def.
func length(l style.Length, base, def float64) float64 {
	switch l.Unit {
	case style.Px:
		return lu(l.V)
	case style.Percent:
		return lu(l.Resolve(base, def))
	}
	return def
}

// borderWidth is a used border width: Blink snaps widths of at least one
// pixel down to whole pixels and thinner ones up to one.
func borderWidth(b style.Border) float64 {
	if b.Style == style.BorderNone || b.Style == style.BorderHidden {
		return 0
	}
	w := b.Width
	if w <= 0 {
		return 0
	}
	if w < 1 {
		return 1
	}
	return math.Floor(w)
}

// edges are top, right, bottom, left widths.
type edges [4]float64

func (e edges) h() float64 { return e[style.Left] + e[style.Right] }
func (e edges) v() float64 { return e[style.Top] + e[style.Bottom] }

// boxEdges are a box's used padding and border (margins are resolved by the
// width and height algorithms).
func boxBorders(s *style.Computed) edges {
	return edges{borderWidth(s.Border[0]), borderWidth(s.Border[1]), borderWidth(s.Border[2]), borderWidth(s.Border[3])}
}

// boxPadding resolves padding against the containing block's width (all
// four sides, CSS 2.1 §8.4).
func boxPadding(s *style.Computed, cbW float64) edges {
	var e edges
	for i := 0; i < 4; i++ {
		v := length(s.Padding[i], cbW, 0)
		if v < 0 {
			v = 0
		}
		e[i] = v
	}
	return e
}

// marginOf resolves one margin; auto is 0 (callers check IsAuto).
func marginOf(s *style.Computed, side int, cbW float64) float64 {
	return length(s.Margin[side], cbW, 0)
}

// marginStrut is the set of adjoining margins collapsing together: the
// largest positive and the most negative (CSS 2.1 §8.3.1).
type marginStrut struct{ pos, neg float64 }

func (m *marginStrut) add(v float64) {
	if v > m.pos {
		m.pos = v
	}
	if v < m.neg {
		m.neg = v
	}
}

func (m marginStrut) sum() float64 { return m.pos + m.neg }
