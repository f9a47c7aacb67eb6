package style

import "math"

// angle reads an angle in radians (deg, rad, grad, turn; 0 alone).
func angle(t *tok) (float64, bool) {
	switch t.kind {
	case tNumber:
		return 0, t.n == 0
	case tDim:
		switch t.k {
		case "deg":
			return t.n * math.Pi / 180, true
		case "rad":
			return t.n, true
		case "grad":
			return t.n * math.Pi / 200, true
		case "turn":
			return t.n * 2 * math.Pi, true
		}
	}
	return 0, false
}

// fnArgs splits a function's arguments at its commas.
func fnArgs(t *tok) [][]tok {
	var args [][]tok
	var cur []tok
	for _, a := range t.args {
		if a.isComma() {
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, a)
	}
	if len(cur) > 0 || len(args) > 0 {
		args = append(args, cur)
	}
	return args
}

// transform reads a transform list (CSS Transforms 1 and the 3D functions
// of Transforms 2). flat is false when a function takes effect in 3D
// (rotateX, perspective, matrix3d): valid CSS that phantom does not print.
// translateZ, translate3d's z and scaleZ change nothing without a
// perspective and are dropped.
func (st *state) transform(v []tok) (fns []TransformFn, ok, flat bool) {
	flat = true
	for i := range v {
		t := &v[i]
		if t.kind != tFunc {
			return nil, false, false
		}
		args := fnArgs(t)
		n := len(args)
		one := func(i int) *tok {
			if i < n && len(args[i]) == 1 {
				return &args[i][0]
			}
			return nil
		}
		num := func(i int) (float64, bool) {
			a := one(i)
			switch {
			case a == nil:
				return 0, false
			case a.kind == tPercent:
				return a.n / 100, true
			}
			return a.n, a.kind == tNumber
		}
		length := func(i int) (Length, bool) {
			a := one(i)
			if a == nil {
				return Length{}, false
			}
			l, ok, _ := st.len().length(a, allowPct|allowNegative)
			return l, ok
		}
		nums := func(k int) ([]float64, bool) {
			out := make([]float64, k)
			for j := range out {
				x, ok := num(j)
				if !ok {
					return nil, false
				}
				out[j] = x
			}
			return out, n == k
		}
		f := TransformFn{M: [6]float64{1, 0, 0, 1, 0, 0}}
		switch t.k {
		case "matrix":
			m, ok := nums(6)
			if !ok {
				return nil, false, false
			}
			f.Kind = "matrix"
			copy(f.M[:], m)
		case "translate", "translatex", "translatey", "translate3d", "translatez":
			f.Kind = "translate"
			var ok bool
			switch {
			case t.k == "translate" && n == 1:
				f.X, ok = length(0)
			case t.k == "translate" && n == 2:
				var ok2 bool
				f.X, ok = length(0)
				f.Y, ok2 = length(1)
				ok = ok && ok2
			case t.k == "translatex" && n == 1:
				f.X, ok = length(0)
			case t.k == "translatey" && n == 1:
				f.Y, ok = length(0)
			case t.k == "translatez" && n == 1:
				var z Length
				z, ok = length(0)
				ok = ok && z.Unit != Percent
			case t.k == "translate3d" && n == 3:
				var ok2, ok3 bool
				var z Length
				f.X, ok = length(0)
				f.Y, ok2 = length(1)
				z, ok3 = length(2)
				ok = ok && ok2 && ok3 && z.Unit != Percent
			}
			if !ok {
				return nil, false, false
			}
		case "scale", "scalex", "scaley", "scale3d", "scalez":
			f.Kind = "scale"
			var s []float64
			var ok bool
			switch t.k {
			case "scale":
				if s, ok = nums(1); ok {
					f.M[0], f.M[3] = s[0], s[0]
				} else if s, ok = nums(2); ok {
					f.M[0], f.M[3] = s[0], s[1]
				}
			case "scalex":
				if s, ok = nums(1); ok {
					f.M[0] = s[0]
				}
			case "scaley":
				if s, ok = nums(1); ok {
					f.M[3] = s[0]
				}
			case "scalez":
				_, ok = nums(1)
			case "scale3d":
				if s, ok = nums(3); ok {
					f.M[0], f.M[3] = s[0], s[1]
				}
			}
			if !ok {
				return nil, false, false
			}
		case "rotate", "rotatez":
			a := one(0)
			if n != 1 || a == nil {
				return nil, false, false
			}
			ang, ok := angle(a)
			if !ok {
				return nil, false, false
			}
			f.Kind, f.Angle = "rotate", ang
		case "skew", "skewx", "skewy":
			f.Kind = "skew"
			a := one(0)
			if a == nil || n > 2 || n == 2 && t.k != "skew" {
				return nil, false, false
			}
			ang, ok := angle(a)
			if !ok {
				return nil, false, false
			}
			switch t.k {
			case "skew", "skewx":
				f.Angle = ang
			case "skewy":
				f.Angle2 = ang
			}
			if n == 2 {
				b := one(1)
				if b == nil {
					return nil, false, false
				}
				if f.Angle2, ok = angle(b); !ok {
					return nil, false, false
				}
			}
		case "rotatex", "rotatey", "rotate3d", "perspective", "matrix3d":
			flat = false
			continue
		default:
			return nil, false, false
		}
		fns = append(fns, f)
	}
	return fns, len(v) > 0, flat
}

// transformOrigin reads transform-origin's x and y (a third value, z, is
// allowed and dropped): keywords in either order, lengths and percentages.
func (st *state) transformOrigin(v []tok) ([2]Length, bool) {
	o := [2]Length{{V: 50, Unit: Percent}, {V: 50, Unit: Percent}}
	if len(v) == 3 {
		v = v[:2]
	}
	if len(v) == 0 || len(v) > 2 {
		return o, false
	}
	var set [2]bool
	for i := range v {
		t := &v[i]
		if t.kind == tIdent {
			axis, pct := -1, 0.0
			switch t.k {
			case "left":
				axis, pct = 0, 0
			case "right":
				axis, pct = 0, 100
			case "top":
				axis, pct = 1, 0
			case "bottom":
				axis, pct = 1, 100
			case "center":
				continue
			default:
				return o, false
			}
			if set[axis] {
				return o, false
			}
			o[axis], set[axis] = Length{V: pct, Unit: Percent}, true
			continue
		}
		l, ok, _ := st.len().length(t, allowPct|allowNegative)
		if !ok {
			return o, false
		}
		axis := i
		if len(v) == 2 && i == 1 && v[0].kind == tIdent && (v[0].k == "top" || v[0].k == "bottom") {
			return o, false // "top 10px": a length after a vertical keyword is not x
		}
		o[axis], set[axis] = l, true
	}
	return o, true
}
