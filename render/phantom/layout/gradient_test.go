package layout

import (
	"math"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

// TestLinearGradientGeometry lays gradients over a 200 × 100 box at (10,
// 20) as CSS Images 3 §3.1 does: the line through the centre at the angle,
// as long as the corners reach along it, the magic corners of "to top
// right", and stops without positions spread between those with.
func TestLinearGradientGeometry(t *testing.T) {
	c := func(r float64) draw.Color { return draw.Color{R: r, A: 1} }
	stops := func(ps ...float64) []style.GradientStop {
		var out []style.GradientStop
		for i, p := range ps {
			s := style.GradientStop{Color: c(float64(i))}
			if !math.IsNaN(p) {
				s.Pos, s.HasPos = style.Length{V: p, Unit: style.Percent}, true
			}
			out = append(out, s)
		}
		return out
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name           string
		g              style.Gradient
		x0, y0, x1, y1 float64
		offsets        []float64
	}{
		{"to bottom", style.Gradient{Angle: math.Pi, Stops: stops(nan, nan)}, 110, 20, 110, 120, []float64{0, 1}},
		{"90deg", style.Gradient{Angle: math.Pi / 2, Stops: stops(nan, nan, nan)}, 10, 70, 210, 70, []float64{0, 0.5, 1}},
		{"stops at 20% and 80% move the ends", style.Gradient{Angle: math.Pi / 2, Stops: stops(20, 80)}, 50, 70, 170, 70, []float64{0, 1}},
		{"a stop before an earlier one", style.Gradient{Angle: math.Pi / 2, Stops: stops(nan, 60, 30, nan)}, 10, 70, 210, 70, []float64{0, 0.6, 0.6, 1}},
		{"to top right", style.Gradient{Corner: true, CornerX: 1, CornerY: -1, Stops: stops(nan, nan)}, 70, 150, 150, -10, []float64{0, 1}},
	} {
		op, ok := linearGradient(&tc.g, 10, 20, 200, 100)
		if !ok {
			t.Errorf("%s: no gradient", tc.name)
			continue
		}
		for i, v := range [4][2]float64{{op.X0, tc.x0}, {op.Y0, tc.y0}, {op.X1, tc.x1}, {op.Y1, tc.y1}} {
			if math.Abs(v[0]-v[1]) > 0.01 {
				t.Errorf("%s: coordinate %d is %.2f, want %.2f", tc.name, i, v[0], v[1])
			}
		}
		for i, s := range op.Stops {
			if math.Abs(s.Offset-tc.offsets[i]) > 1e-6 {
				t.Errorf("%s: stop %d at %.3f, want %.3f", tc.name, i, s.Offset, tc.offsets[i])
			}
		}
	}
}
