package fonts

import (
	"math"
	"os"
)

// This file is fontconfig's matching (FcFontSort's scores) for the
// patterns Chromium builds: a family list after substitution, a weight,
// slant and width, the default language, and for per-character fallback a
// character. A face's score is compared element by element in fontconfig's
// priority order; the best face is the first of the sorted set.

// fcPattern is what Chromium asks fontconfig.
type fcPattern struct {
	families []fcFamily
	weight   float64 // fontconfig scale
	slant    int     // 0 roman, 100 italic, 110 oblique
	width    float64 // fontconfig scale (percent)
	char     rune    // for per-character fallback; 0 for none
}

// fcScore holds a face's distances in priority order: charset, strong
// family, language, weak family, slant, weight, width, font version.
type fcScore [8]float64

func (a *fcScore) less(b *fcScore) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// familyIndex maps each family of a substituted list to its first strong
// and weak positions, for scoring faces against the list quickly.
type familyIndex struct {
	strong, weak           map[string]int
	firstStrong, firstWeak int
	hasStrong, hasWeak     bool
}

func newFamilyIndex(list []fcFamily) familyIndex {
	ix := familyIndex{strong: make(map[string]int), weak: make(map[string]int), firstStrong: -1, firstWeak: -1}
	for i, f := range list {
		m := ix.weak
		if f.strong {
			m = ix.strong
			if ix.firstStrong < 0 {
				ix.firstStrong = i
			}
		} else if ix.firstWeak < 0 {
			ix.firstWeak = i
		}
		if _, ok := m[f.fold]; !ok {
			m[f.fold] = i
		}
	}
	ix.hasStrong, ix.hasWeak = ix.firstStrong >= 0, ix.firstWeak >= 0
	return ix
}

// familyScores are FcCompareValueList's family distances: the position of
// the first matching value, or 1000 plus the position of the first value
// of that binding when none matches.
func (ix *familyIndex) familyScores(fc *face) (strong, weak float64) {
	strong, weak = math.Inf(1), math.Inf(1)
	if ix.hasStrong {
		strong = float64(1000 + ix.firstStrong)
	}
	if ix.hasWeak {
		weak = float64(1000 + ix.firstWeak)
	}
	for _, f := range fc.folded {
		if j, ok := ix.strong[f]; ok && float64(j) < strong {
			strong = float64(j)
		}
		if j, ok := ix.weak[f]; ok && float64(j) < weak {
			weak = float64(j)
		}
	}
	return strong, weak
}

// fcBest returns the face fontconfig sorts first for p among those ok
// accepts (nil for all), or nil when none is acceptable.
func (l *Library) fcBest(p *fcPattern, ok func(*face) bool) *face {
	ix := newFamilyIndex(p.families)
	// The charset and the strong family come first in fontconfig's
	// order; only the faces best on those need the rest of the score
	// (which may read their character maps).
	var cands []*face
	bestPre := [2]float64{math.Inf(1), math.Inf(1)}
	for _, fc := range l.faces {
		if ok != nil && !ok(fc) {
			continue
		}
		cs := 0.0
		if p.char != 0 && !fc.covers(p.char) {
			cs = 1
		}
		st, _ := ix.familyScores(fc)
		pre := [2]float64{cs, st}
		switch {
		case pre[0] < bestPre[0] || pre[0] == bestPre[0] && pre[1] < bestPre[1]:
			bestPre, cands = pre, append(cands[:0], fc)
		case pre == bestPre:
			cands = append(cands, fc)
		}
	}
	var best *face
	var bestScore fcScore
	for _, fc := range cands {
		s := l.fcScore(fc, p, &ix)
		if best == nil || s.less(&bestScore) {
			best, bestScore = fc, s
		}
	}
	return best
}

func (l *Library) fcScore(fc *face, p *fcPattern, ix *familyIndex) fcScore {
	var s fcScore
	if p.char != 0 && !fc.covers(p.char) {
		s[0] = 1
	}
	s[1], s[3] = ix.familyScores(fc)
	if !fc.coversEnglish() {
		s[2] = 1
	}
	s[4] = math.Abs(float64(p.slant - fc.slant))
	s[5] = math.Abs(p.weight - fc.fcWeight)
	s[6] = math.Abs(p.width - fc.fcWidth)
	// FcDefaultSubstitute asks for the highest font version.
	s[7] = math.Abs(float64(0x7fffffff - fc.info.revision))
	return s
}

// englishOrth is fontconfig's orthography for English (fc-lang/en.orth):
// a face that lacks one of these characters does not support "en", the
// language Chromium's patterns carry.
var englishOrth = []runeRange{
	{0x41, 0x5a}, {0x61, 0x7a}, {0xc0, 0xc0}, {0xc7, 0xcb}, {0xcf, 0xcf}, {0xd1, 0xd1}, {0xd4, 0xd4},
	{0xd6, 0xd6}, {0xe0, 0xe0}, {0xe7, 0xeb}, {0xef, 0xef}, {0xf1, 0xf1}, {0xf4, 0xf4}, {0xf6, 0xf6},
}

// coverage returns the face's character map, read once.
func (fc *face) coverage() coverage {
	fc.covOnce.Do(func() {
		f, err := os.Open(fc.path)
		if err != nil {
			return
		}
		defer f.Close()
		offs, err := readSFNTOffsets(f)
		if err != nil || fc.index >= len(offs) {
			return
		}
		fc.cov, _ = readCoverage(f, offs[fc.index])
		fc.english = true
		for _, rr := range englishOrth {
			for r := rr.lo; r <= rr.hi; r++ {
				if !fc.cov.has(r) {
					fc.english = false
				}
			}
		}
	})
	return fc.cov
}

// covers reports whether the face maps r to a glyph.
func (fc *face) covers(r rune) bool { return fc.coverage().has(r) }

// coversEnglish reports whether fontconfig counts the face as supporting
// English.
func (fc *face) coversEnglish() bool {
	fc.coverage()
	return fc.english
}

// fcWidthFromClass maps OS/2 usWidthClass to fontconfig's widths.
var fcWidthFromClass = [10]float64{100, 50, 63, 75, 87, 100, 113, 125, 150, 200}

// skWidthToFc is Skia's mapping of a CSS font-stretch (via SkFontStyle's
// width classes, as Blink's FontDescription::SkiaFontStyle rounds it) onto
// fontconfig's widths.
func skWidthToFc(stretch float64) float64 {
	class := 9
	for i, limit := range []float64{50, 62.5, 75, 87.5, 100, 112.5, 125, 150} {
		if stretch <= limit {
			class = i + 1
			break
		}
	}
	return fcWidthFromClass[class]
}
