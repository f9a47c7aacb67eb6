package layout

import (
	"unicode/utf8"

	"github.com/go-text/typesetting/language"
)

// cursiveRuns marks the bytes of a paragraph's text that lie in a run of a
// cursive script, or returns nil when there is none. Blink adds no
// letter-spacing in such a run but after its spaces (ShapeResult's spacing
// skips a run whose script is cursive; measured against Chromium 156 at
// 10 px: no spacing after Arabic letters, the digits and punctuation of
// their run, or an Arabic comma; one after each space and no-break space).
// Runs are found item by item as Blink's RunSegmenter finds them: common
// and inherited characters join the run before them, or the first run
// after them at an item's start.
func cursiveRuns(p *paragraph) []bool {
	var out []bool
	for _, it := range p.items {
		if it.kind != itText || it.end <= it.start {
			continue
		}
		text := p.text[it.start:it.end]
		runStart, cur := 0, language.Common
		mark := func(end int) {
			if !isCursiveScript(cur) {
				return
			}
			if out == nil {
				out = make([]bool, len(p.text)+1)
			}
			for i := it.start + runStart; i < it.start+end; i++ {
				out[i] = true
			}
		}
		for i := 0; i < len(text); {
			r, n := utf8.DecodeRune(text[i:])
			sc := language.LookupScript(r)
			if sc != language.Common && sc != language.Inherited && sc != cur {
				if cur != language.Common {
					mark(i)
					runStart = i
				}
				cur = sc
			}
			i += n
		}
		mark(len(text))
	}
	return out
}

// isCursiveScript reports whether letters of script sc join, so that
// letter-spacing would break them apart (CSS Text 3 §8.2's list, as Blink
// has it).
func isCursiveScript(sc language.Script) bool {
	switch sc {
	case language.Arabic, language.Syriac, language.Nko, language.Mandaic,
		language.Mongolian, language.Phags_Pa, language.Hanifi_Rohingya:
		return true
	}
	return false
}
