package fonts

import (
	"unicode"

	"github.com/go-text/typesetting/language"
)

// item is a range of text Blink shapes with one font fallback iterator
// (RunSegmenter): one script, and for synthesised small capitals one case.
// Emoji get no runs of their own: Chromium's PDFs show them set like text
// (from DejaVu Sans, which has some), not through an emoji font search.
type item struct {
	start, end int
	script     language.Script
	small      bool // lowercase set as capitals at 0.7 of the size
}

// itemize splits text as Blink's RunSegmenter does (scripts as
// ScriptRunIterator resolves them) and, when small capitals are
// synthesised, where the case changes (SmallCapsIterator). Common and inherited characters (spaces,
// digits, punctuation, marks) join the run before them, or the first run
// after them at the start.
func itemize(dst []item, text string, smallCaps bool) []item {
	dst = dst[:0]
	cur := item{script: language.Common}
	started := false
	for i, r := range text {
		sc := language.LookupScript(r)
		if sc == language.Inherited {
			sc = language.Common
		}
		small := smallCaps && needsUppercase(r)
		if !started {
			cur = item{start: i, script: sc, small: small}
			started = true
			continue
		}
		split := small != cur.small
		if !split && sc != language.Common {
			if cur.script == language.Common {
				cur.script = sc // leading common characters take the first script
			} else if sc != cur.script {
				split = true
			}
		}
		if split {
			cur.end = i
			dst = append(dst, cur)
			cur = item{start: i, script: sc, small: small}
		}
	}
	if started {
		cur.end = len(text)
		dst = append(dst, cur)
	}
	return dst
}

// needsUppercase is SmallCapsIterator's test: a character that changes
// when uppercased is set as a small capital.
func needsUppercase(r rune) bool {
	return unicode.ToUpper(r) != r
}
