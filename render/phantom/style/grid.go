package style

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Grid layout's properties (CSS Grid Layout 1 §7-8): the explicit grid's
// tracks, line names and areas, the implicit tracks, auto-placement, and
// each item's lines.

// BreadthKind is what one end of a track size is.
type BreadthKind uint8

const (
	// BrLength is a length or a percentage (L).
	BrLength BreadthKind = iota
	// BrFlex is a flexible length: Fr fr.
	BrFlex
	BrAuto
	BrMinContent
	BrMaxContent
)

// GridBreadth is a track's minimum or maximum sizing function.
type GridBreadth struct {
	Kind BreadthKind
	L    Length
	Fr   float64
}

// TrackSize is one track's sizing functions. fit-content(L) is FitContent
// with Max the limit L and Min auto.
type TrackSize struct {
	Min, Max   GridBreadth
	FitContent bool
}

// TrackList is grid-template-columns or grid-template-rows: the tracks
// with their line names, and at most one repeat(auto-fill) or
// repeat(auto-fit).
type TrackList struct {
	// Sizes are the tracks outside the automatic repetition, with
	// repeat(<integer>) expanded; Names the names of their lines
	// (len(Sizes)+1 entries, nil when unnamed).
	Sizes []TrackSize
	Names [][]string
	// RepeatAt is the line of Sizes where the automatic repetition sits
	// (-1 when there is none): Names[RepeatAt] are the names before it,
	// AfterRepeat those after it.
	RepeatAt    int
	AfterRepeat []string
	// Repeat is the repeated tracks and RepeatNames their lines' names
	// (len(Repeat)+1); AutoFit is auto-fit (empty repetitions collapse).
	Repeat      []TrackSize
	RepeatNames [][]string
	AutoFit     bool
}

// Expand returns the list's tracks and line names with the automatic
// repetition repeated n times.
func (t *TrackList) Expand(n int) ([]TrackSize, [][]string) {
	if t == nil {
		return nil, [][]string{nil}
	}
	if t.RepeatAt < 0 {
		return t.Sizes, t.Names
	}
	sizes := make([]TrackSize, 0, len(t.Sizes)+n*len(t.Repeat))
	names := make([][]string, 0, cap(sizes)+1)
	sizes = append(sizes, t.Sizes[:t.RepeatAt]...)
	names = append(names, t.Names[:t.RepeatAt]...)
	last := t.Names[t.RepeatAt]
	for i := 0; i < n; i++ {
		for j, s := range t.Repeat {
			if j == 0 {
				names = append(names, joinNames(last, t.RepeatNames[0]))
			} else {
				names = append(names, t.RepeatNames[j])
			}
			sizes = append(sizes, s)
		}
		last = t.RepeatNames[len(t.Repeat)]
	}
	names = append(names, joinNames(last, t.AfterRepeat))
	sizes = append(sizes, t.Sizes[t.RepeatAt:]...)
	names = append(names, t.Names[t.RepeatAt+1:]...)
	return sizes, names
}

func joinNames(a, b []string) []string {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	}
	return append(append([]string(nil), a...), b...)
}

// GridArea is a named area's lines, 0-based: rows [Row0, Row1), columns
// [Col0, Col1).
type GridArea struct{ Row0, Col0, Row1, Col1 int }

// GridAreas is grid-template-areas: its size and its named areas.
type GridAreas struct {
	Rows, Cols int
	Areas      map[string]GridArea
}

// GridLine is one of grid-row-start, grid-row-end, grid-column-start and
// grid-column-end. The zero value is auto.
type GridLine struct {
	// Span is a span of N lines (or of N lines named Name).
	Span bool
	// N is the line number (negative from the end), or the span; 0 with
	// a Name alone means the first line of that name (or the area's).
	N    int
	Name string
}

// IsAuto reports whether the line is auto.
func (g GridLine) IsAuto() bool { return !g.Span && g.N == 0 && g.Name == "" }

// GridFlow is grid-auto-flow.
type GridFlow uint8

const (
	// FlowColumn fills columns rather than rows; FlowDense backfills.
	FlowColumn GridFlow = 1 << iota
	FlowDense
)

// MaxGridLine bounds line numbers and spans, as Blink clamps them (a grid
// position past it is placed at it).
const MaxGridLine = 1000

// MaxGridTracks bounds the explicit tracks of one template after
// repeat(<integer>) is expanded: more is reported, not laid out.
const MaxGridTracks = 1000

// breadth reads one track breadth; inflexible refuses fr.
func (st *state) breadth(t *tok, inflexible bool) (GridBreadth, bool) {
	switch t.kind {
	case tIdent:
		switch t.k {
		case "auto":
			return GridBreadth{Kind: BrAuto}, true
		case "min-content", "-webkit-min-content":
			return GridBreadth{Kind: BrMinContent}, true
		case "max-content", "-webkit-max-content":
			return GridBreadth{Kind: BrMaxContent}, true
		}
		return GridBreadth{}, false
	case tDim:
		if t.k == "fr" {
			if inflexible || t.n < 0 {
				return GridBreadth{}, false
			}
			return GridBreadth{Kind: BrFlex, Fr: t.n}, true
		}
	}
	l, ok, calcErr := st.len().length(t, allowPct)
	if calcErr {
		st.report("calc")
		return GridBreadth{Kind: BrAuto}, true
	}
	return GridBreadth{L: l}, ok
}

// trackSize reads one <track-size>.
func (st *state) trackSize(t *tok) (TrackSize, bool) {
	if t.kind == tFunc {
		switch t.k {
		case "minmax":
			parts := splitCommas(t.args)
			if len(parts) != 2 || len(parts[0]) != 1 || len(parts[1]) != 1 {
				return TrackSize{}, false
			}
			lo, ok1 := st.breadth(&parts[0][0], true)
			hi, ok2 := st.breadth(&parts[1][0], false)
			return TrackSize{Min: lo, Max: hi}, ok1 && ok2
		case "fit-content":
			if len(t.args) != 1 {
				return TrackSize{}, false
			}
			b, ok := st.breadth(&t.args[0], true)
			if !ok || b.Kind != BrLength {
				return TrackSize{}, false
			}
			return TrackSize{Min: GridBreadth{Kind: BrAuto}, Max: b, FitContent: true}, true
		}
		if !isMath(t) {
			return TrackSize{}, false
		}
	}
	b, ok := st.breadth(t, false)
	if !ok {
		return TrackSize{}, false
	}
	if b.Kind == BrFlex {
		// 1fr is minmax(auto, 1fr).
		return TrackSize{Min: GridBreadth{Kind: BrAuto}, Max: b}, true
	}
	return TrackSize{Min: b, Max: b}, true
}

// isFixed reports whether a track size is a <fixed-size>, as an
// automatic repetition's tracks must be.
func (s TrackSize) isFixed() bool {
	if s.FitContent {
		return false
	}
	return s.Min.Kind == BrLength || s.Max.Kind == BrLength
}

// lineNames reads a [name ...] block.
func lineNames(t *tok) ([]string, bool) {
	if t.kind != tParen || t.s != "[" {
		return nil, false
	}
	var out []string
	for i := range t.args {
		a := &t.args[i]
		if a.kind != tIdent || a.k == "span" || a.k == "auto" || isWideKeyword(a.k) {
			return nil, false
		}
		out = append(out, a.s)
	}
	return out, true
}

// trackList reads grid-template-columns or -rows: none, or a track list.
// subgrid and masonry are reported (Chromium's to print).
func (st *state) trackList(v []tok) (*TrackList, bool) {
	if len(v) == 1 && v[0].isIdent("none") {
		return nil, true
	}
	if len(v) > 0 && (v[0].isIdent("subgrid") || v[0].isIdent("masonry")) {
		st.report("grid-template:" + v[0].k)
		return nil, true
	}
	tl := &TrackList{RepeatAt: -1}
	var pending []string
	flush := func() {
		tl.Names = append(tl.Names, pending)
		pending = nil
	}
	// afterRep is set from an automatic repetition to the next track: the
	// names written between them are the line's after the repetition.
	afterRep := false
	// startTrack gives the pending names to the line a track starts at.
	startTrack := func() {
		if afterRep {
			tl.AfterRepeat, pending, afterRep = pending, nil, false
		} else {
			flush()
		}
	}
	for i := range v {
		t := &v[i]
		if t.kind == tParen {
			n, ok := lineNames(t)
			if !ok {
				return nil, false
			}
			pending = append(pending, n...)
			continue
		}
		if t.kind == tFunc && t.k == "repeat" {
			parts := splitCommasN(t.args, 2)
			if len(parts) != 2 || len(parts[0]) != 1 {
				return nil, false
			}
			sizes, names, ok := st.repeatBody(parts[1])
			if !ok {
				return nil, false
			}
			c := &parts[0][0]
			switch {
			case c.isIdent("auto-fill"), c.isIdent("auto-fit"):
				if tl.RepeatAt >= 0 {
					return nil, false
				}
				for _, s := range sizes {
					if !s.isFixed() {
						return nil, false
					}
				}
				if len(tl.Sizes)+len(sizes) > MaxGridTracks {
					st.report("grid-template:tracks")
					return nil, true
				}
				tl.RepeatAt = len(tl.Sizes)
				tl.Repeat, tl.RepeatNames, tl.AutoFit = sizes, names, c.k == "auto-fit"
				flush() // the names before the repetition
				afterRep = true
				continue
			case c.kind == tNumber && c.n == math.Trunc(c.n) && c.n >= 1:
				if len(tl.Sizes)+int(math.Min(c.n, MaxGridTracks+1))*len(sizes) > MaxGridTracks {
					st.report("grid-template:tracks")
					return nil, true
				}
				for k := 0; k < int(c.n); k++ {
					for j, s := range sizes {
						if j == 0 {
							pending = append(pending, names[0]...)
						} else {
							pending = names[j]
						}
						startTrack()
						tl.Sizes = append(tl.Sizes, s)
					}
					pending = append([]string(nil), names[len(sizes)]...)
				}
				continue
			}
			return nil, false
		}
		s, ok := st.trackSize(t)
		if !ok {
			return nil, false
		}
		startTrack()
		tl.Sizes = append(tl.Sizes, s)
		if len(tl.Sizes) > MaxGridTracks {
			st.report("grid-template:tracks")
			return nil, true
		}
	}
	if afterRep {
		tl.AfterRepeat = pending
	} else {
		flush()
	}
	if len(tl.Sizes) == 0 && tl.RepeatAt < 0 {
		return nil, false
	}
	return tl, true
}

// repeatBody reads a repeat()'s tracks and their line names.
func (st *state) repeatBody(v []tok) ([]TrackSize, [][]string, bool) {
	var sizes []TrackSize
	var names [][]string
	var pending []string
	for i := range v {
		t := &v[i]
		if t.kind == tParen {
			n, ok := lineNames(t)
			if !ok {
				return nil, nil, false
			}
			pending = append(pending, n...)
			continue
		}
		s, ok := st.trackSize(t)
		if !ok {
			return nil, nil, false
		}
		names = append(names, pending)
		pending = nil
		sizes = append(sizes, s)
	}
	if len(sizes) == 0 {
		return nil, nil, false
	}
	return sizes, append(names, pending), true
}

// splitCommasN splits at the first n-1 top-level commas.
func splitCommasN(ts []tok, n int) [][]tok {
	var out [][]tok
	start := 0
	for i := range ts {
		if len(out) == n-1 {
			break
		}
		if ts[i].isComma() {
			out = append(out, ts[start:i])
			start = i + 1
		}
	}
	return append(out, ts[start:])
}

// autoTracks reads grid-auto-columns or grid-auto-rows.
func (st *state) autoTracks(v []tok) ([]TrackSize, bool) {
	if len(v) == 1 && v[0].isIdent("auto") {
		return nil, true
	}
	out := make([]TrackSize, 0, len(v))
	for i := range v {
		s, ok := st.trackSize(&v[i])
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}

// gridAreas reads grid-template-areas: none, or rows of strings whose
// cells (names, or runs of "." for none) make rectangles.
func gridAreas(v []tok) (*GridAreas, bool) {
	if len(v) == 1 && v[0].isIdent("none") {
		return nil, true
	}
	ga := &GridAreas{Areas: map[string]GridArea{}}
	count := map[string]int{}
	for r := range v {
		if v[r].kind != tString {
			return nil, false
		}
		cells := areaCells(v[r].s)
		if cells == nil {
			return nil, false
		}
		if r == 0 {
			ga.Cols = len(cells)
		} else if len(cells) != ga.Cols {
			return nil, false
		}
		if ga.Cols > MaxGridTracks || r >= MaxGridTracks {
			return nil, false
		}
		for c, name := range cells {
			if name == "" {
				continue
			}
			a, ok := ga.Areas[name]
			if !ok {
				a = GridArea{Row0: r, Col0: c, Row1: r + 1, Col1: c + 1}
			}
			a.Row0, a.Col0 = min(a.Row0, r), min(a.Col0, c)
			a.Row1, a.Col1 = max(a.Row1, r+1), max(a.Col1, c+1)
			ga.Areas[name] = a
			count[name]++
		}
		ga.Rows++
	}
	for name, a := range ga.Areas {
		if (a.Row1-a.Row0)*(a.Col1-a.Col0) != count[name] {
			return nil, false // not a rectangle
		}
	}
	if ga.Rows == 0 || ga.Cols == 0 {
		return nil, false
	}
	return ga, true
}

// areaCells splits one row of grid-template-areas into its cells: a name
// (a run of name code points), or "" for a run of full stops. It returns
// nil for a character that is neither.
func areaCells(s string) []string {
	out := []string{}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f':
			i += n
		case r == '.':
			for i < len(s) && s[i] == '.' {
				i++
			}
			out = append(out, "")
		case isNameRune(r):
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !isNameRune(r) {
					break
				}
				j += n
			}
			out = append(out, s[i:j])
			i = j
		default:
			return nil
		}
	}
	return out
}

func isNameRune(r rune) bool {
	return r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80
}

// gridLine reads one of the grid-row-start family: auto, a name, a line
// number with an optional name, or span with a count and/or a name.
func gridLine(v []tok) (GridLine, bool) {
	if len(v) == 1 && v[0].isIdent("auto") {
		return GridLine{}, true
	}
	var g GridLine
	hasN := false
	for i := range v {
		t := &v[i]
		switch {
		case t.isIdent("span"):
			if g.Span || i != 0 && i != len(v)-1 {
				return GridLine{}, false
			}
			g.Span = true
		case t.kind == tNumber && t.n == math.Trunc(t.n):
			if hasN || t.n == 0 {
				return GridLine{}, false
			}
			hasN = true
			g.N = int(math.Max(-MaxGridLine, math.Min(MaxGridLine, t.n)))
		case t.kind == tIdent && t.k != "auto" && !isWideKeyword(t.k):
			if g.Name != "" {
				return GridLine{}, false
			}
			g.Name = t.s
		default:
			return GridLine{}, false
		}
	}
	switch {
	case len(v) == 0 || len(v) > 3:
		return GridLine{}, false
	case g.Span && g.N < 0:
		return GridLine{}, false
	case g.Span && !hasN:
		if g.Name == "" {
			return GridLine{}, false
		}
		g.N = 1
	case !g.Span && !hasN && len(v) != 1:
		return GridLine{}, false
	}
	return g, true
}

// gridFlow reads grid-auto-flow: [row | column] || dense.
func gridFlow(v []tok) (GridFlow, bool) {
	var f GridFlow
	seenAxis, seenDense := false, false
	for i := range v {
		switch {
		case v[i].isIdent("row") && !seenAxis:
			seenAxis = true
		case v[i].isIdent("column") && !seenAxis:
			seenAxis = true
			f |= FlowColumn
		case v[i].isIdent("dense") && !seenDense:
			seenDense = true
			f |= FlowDense
		default:
			return 0, false
		}
	}
	return f, len(v) > 0
}

// splitSlash splits toks at top-level "/" delimiters.
func splitSlash(ts []tok) [][]tok {
	var out [][]tok
	start := 0
	for i := range ts {
		if ts[i].isDelim("/") {
			out = append(out, ts[start:i])
			start = i + 1
		}
	}
	return append(out, ts[start:])
}

// isCustomIdent reports whether v is one identifier other than auto and
// span (so a grid line of it may be copied to the omitted end).
func isCustomIdent(v []tok) bool {
	return len(v) == 1 && v[0].kind == tIdent && v[0].k != "auto" && v[0].k != "span"
}

var kwAuto = []tok{{kind: tIdent, k: "auto", s: "auto"}}

// expandGridLinePair expands grid-row and grid-column: start [/ end], the
// end copied from a lone name or else auto.
func expandGridLinePair(v []tok) ([][]tok, bool) {
	parts := splitSlash(v)
	switch len(parts) {
	case 1:
		end := kwAuto
		if isCustomIdent(parts[0]) {
			end = parts[0]
		}
		return [][]tok{parts[0], end}, len(parts[0]) > 0
	case 2:
		return parts, len(parts[0]) > 0 && len(parts[1]) > 0
	}
	return nil, false
}

// expandGridArea expands grid-area: row-start / column-start / row-end /
// column-end, the omitted ones copied from a lone name or else auto.
func expandGridArea(v []tok) ([][]tok, bool) {
	parts := splitSlash(v)
	if len(parts) > 4 {
		return nil, false
	}
	for _, p := range parts {
		if len(p) == 0 {
			return nil, false
		}
	}
	copyOr := func(i int) []tok {
		if isCustomIdent(parts[i]) {
			return parts[i]
		}
		return kwAuto
	}
	for len(parts) < 4 {
		switch len(parts) {
		case 1:
			parts = append(parts, copyOr(0))
		case 2:
			parts = append(parts, copyOr(0))
		case 3:
			parts = append(parts, copyOr(1))
		}
	}
	// grid-area's order is row-start, column-start, row-end, column-end;
	// the longhands are listed as row-start, row-end, column-start,
	// column-end.
	return [][]tok{parts[0], parts[2], parts[1], parts[3]}, true
}

// expandGridTemplate expands grid-template into rows, columns and areas:
// none; rows / columns; or the ASCII-art form of area strings, each with
// optional line names and a row size, then optionally / columns.
func expandGridTemplate(v []tok) ([][]tok, bool) {
	if len(v) == 1 && v[0].isIdent("none") {
		return [][]tok{kwNone, kwNone, kwNone}, true
	}
	hasString := false
	for i := range v {
		if v[i].kind == tString {
			hasString = true
		}
	}
	parts := splitSlash(v)
	if !hasString {
		if len(parts) != 2 || len(parts[0]) == 0 || len(parts[1]) == 0 {
			return nil, false
		}
		return [][]tok{parts[0], parts[1], kwNone}, true
	}
	if len(parts) > 2 {
		return nil, false
	}
	cols := kwNone
	if len(parts) == 2 {
		cols = parts[1]
		for i := range cols {
			if cols[i].kind == tFunc && cols[i].k == "repeat" && len(cols[i].args) > 0 &&
				(cols[i].args[0].isIdent("auto-fill") || cols[i].args[0].isIdent("auto-fit")) {
				return nil, false
			}
		}
	}
	var rows, areas []tok
	rowsSeen := v[:len(parts[0])]
	for i := 0; i < len(rowsSeen); i++ {
		t := rowsSeen[i]
		switch {
		case t.kind == tString:
			areas = append(areas, t)
			// A size may follow the string; auto otherwise.
			if i+1 < len(rowsSeen) && rowsSeen[i+1].kind != tString && rowsSeen[i+1].kind != tParen {
				rows = append(rows, rowsSeen[i+1])
				i++
			} else {
				rows = append(rows, ident("auto"))
			}
		case t.kind == tParen:
			rows = append(rows, t)
		default:
			return nil, false
		}
	}
	return [][]tok{rows, cols, areas}, true
}

// expandGrid expands grid: a grid-template value (the auto tracks and
// flow reset), or one axis's template with the other auto-flowed:
// "<rows> / auto-flow [dense] [<auto-columns>]" or
// "auto-flow [dense] [<auto-rows>] / <columns>". The longhands are rows,
// columns, areas, auto rows, auto columns, auto flow.
func expandGrid(v []tok) ([][]tok, bool) {
	parts := splitSlash(v)
	autoFlow := func(p []tok) (flow []tok, rest []tok, ok bool) {
		i := 0
		for ; i < len(p) && i < 2; i++ {
			if p[i].isIdent("auto-flow") || p[i].isIdent("dense") {
				flow = append(flow, p[i])
				continue
			}
			break
		}
		has := false
		for _, f := range flow {
			if f.k == "auto-flow" {
				has = true
			}
		}
		return flow, p[i:], has
	}
	if len(parts) == 2 {
		for side, axis := range []string{"row", "column"} {
			f, rest, ok := autoFlow(parts[side])
			if !ok {
				continue
			}
			flow := []tok{ident(axis)}
			if len(f) == 2 {
				flow = append(flow, ident("dense"))
			}
			autoTracks := kwAuto
			if len(rest) > 0 {
				autoTracks = rest
			}
			other := parts[1-side]
			if side == 0 {
				// auto-flow [dense] <auto-rows>? / <columns>
				return [][]tok{kwNone, other, kwNone, autoTracks, kwAuto, flow}, len(other) > 0
			}
			// <rows> / auto-flow [dense] <auto-columns>?
			return [][]tok{other, kwNone, kwNone, kwAuto, autoTracks, flow}, len(other) > 0
		}
	}
	t, ok := expandGridTemplate(v)
	if !ok {
		return nil, false
	}
	return [][]tok{t[0], t[1], t[2], kwAuto, kwAuto, {ident("row")}}, true
}

// justifyAligns are justify-self's and justify-items' keywords: the self
// positions with left and right.
var justifyAligns = func() map[string]AxisAlign {
	m := map[string]AxisAlign{"left": AxLeft, "right": AxRight}
	for k, v := range selfAligns {
		m[k] = v
	}
	return m
}()

// parseJustify reads justify-items (items) or justify-self: the legacy
// keywords of justify-items compute to normal, as grid layout treats them
// (they matter to block layout's -webkit-center alone).
func parseJustify(v []tok, items bool) (AxisAlign, bool) {
	if items {
		for i := range v {
			if v[i].isIdent("legacy") {
				if len(v) > 2 {
					return 0, false
				}
				if len(v) == 1 {
					return AxNormal, true
				}
				o := v[1-i].k
				if o == "left" || o == "right" || o == "center" {
					return AxNormal, true
				}
				return 0, false
			}
		}
	} else if kw1(v) == "auto" {
		return AxAuto, true
	}
	return parseAxisAlign(v, justifyAligns)
}

// gridString is a short description of a track list for tests.
func (t *TrackList) String() string {
	if t == nil {
		return "none"
	}
	var b strings.Builder
	for i, s := range t.Sizes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.String())
	}
	return b.String()
}

func (s TrackSize) String() string {
	if s.FitContent {
		return "fit-content(" + s.Max.String() + ")"
	}
	if s.Min == s.Max {
		return s.Min.String()
	}
	if s.Min.Kind == BrAuto && s.Max.Kind == BrFlex {
		return s.Max.String()
	}
	return "minmax(" + s.Min.String() + "," + s.Max.String() + ")"
}

func (g GridBreadth) String() string {
	switch g.Kind {
	case BrFlex:
		return strconv.FormatFloat(g.Fr, 'g', -1, 64) + "fr"
	case BrAuto:
		return "auto"
	case BrMinContent:
		return "min-content"
	case BrMaxContent:
		return "max-content"
	}
	if g.L.Unit == Percent {
		return strconv.FormatFloat(g.L.V, 'g', -1, 64) + "%"
	}
	return strconv.FormatFloat(g.L.V, 'g', -1, 64) + "px"
}
