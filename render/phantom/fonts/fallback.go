package fonts

import "github.com/platen/platen/render/phantom/style"

// This file is Blink's per-character fallback on Linux, for a character
// none of the list's faces has (FontCache::PlatformFallbackFontForCharacter):
//
//  1. For bold or italic text, the first family of the list at normal
//     weight and style, if it has the character, with bold and italic
//     synthesised (FallbackOnStandardFontStyle).
//  2. fontconfig's first face for a pattern holding only the character and
//     the language (gfx::GetFallbackFontForChar), regular and upright,
//     with bold and italic synthesised as the text asks.
//  3. Otherwise the primary font draws .notdef.

// fallbackFor returns the face that sets r when no face of res has it, or
// nil when none on the machine has it.
func (l *Library) fallbackFor(r rune, res *resolution) *Resolved {
	q := res.query
	bold := q.Weight >= boldThreshold
	if (bold || q.Style == style.FontItalic) && len(q.Families) > 0 {
		plain := Query{Families: q.Families[:1], Weight: 400, Stretch: q.Stretch}
		if fc := l.familyFace(q.Families[0], plain); fc != nil && fc.covers(r) {
			return l.fallbackResolved(fc, bold, q.Style == style.FontItalic)
		}
	}
	fc := l.systemFallback(r)
	if fc == nil {
		return nil
	}
	return l.fallbackResolved(fc, bold && fc.weight < boldThreshold, q.Style != style.FontNormal && fc.slant == 0)
}

// boldThreshold is Blink's BoldThreshold: weights from 600 are bold.
const boldThreshold = 600

func (l *Library) fallbackResolved(fc *face, fakeBold, fakeItalic bool) *Resolved {
	if fc.load() != nil {
		return nil
	}
	return l.intern(Resolved{Font: fc.font, Family: fc.info.families[0], FakeBold: fakeBold, FakeItalic: fakeItalic, face: fc})
}

// familyFace is resolveFamily's face (without synthesis), for the
// first-family fallback.
func (l *Library) familyFace(fam string, q Query) *face {
	if res := l.resolveFamily(fam, q); res != nil {
		return res.face
	}
	return nil
}

// systemFallback is gfx::GetFallbackFontForChar: fontconfig's sorted
// faces for the character, first one that has it. Cached per character.
func (l *Library) systemFallback(r rune) *face {
	l.mu.Lock()
	fc, ok := l.fallback[r]
	l.mu.Unlock()
	if ok {
		return fc
	}
	p := &fcPattern{families: l.cfg.substitute(""), weight: 80, width: 100, char: r}
	fc = l.fcBest(p, func(f *face) bool { return f.covers(r) })
	l.mu.Lock()
	if len(l.fallback) >= maxFallbacks {
		clear(l.fallback)
	}
	l.fallback[r] = fc
	l.mu.Unlock()
	return fc
}

// maxFallbacks bounds the cache of fallback faces by character.
const maxFallbacks = 1 << 14

// intern returns the one *Resolved for res's face and synthesis, so that
// the shaper can tell faces apart by pointer.
func (l *Library) intern(res Resolved) *Resolved {
	k := internKey{res.face, res.FakeBold, res.FakeItalic}
	l.mu.Lock()
	defer l.mu.Unlock()
	if p, ok := l.interned[k]; ok {
		return p
	}
	p := &res
	l.interned[k] = p
	return p
}

type internKey struct {
	face                 *face
	fakeBold, fakeItalic bool
}
