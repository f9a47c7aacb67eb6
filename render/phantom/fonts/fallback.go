package fonts

import (
	"strings"

	"github.com/platen/platen/render/phantom/style"
)

// This file is Blink's per-character fallback on Linux, for a character
// none of the list's faces has (FontCache::PlatformFallbackFontForCharacter):
//
//  1. For bold or italic text, the first family of the list at normal
//     weight and style, if it has the character, with bold and italic
//     synthesised (FallbackOnStandardFontStyle).
//  2. fontconfig's first face for a pattern holding only the language
//     (gfx::GetFallbackFontForChar) that has the character, regular and
//     upright, with bold and italic synthesised as the text asks.
//
// shape.go asks for one character at a time, in Blink's order, and ends
// with the last-resort font and then the primary font's .notdef.

// fallbackFor is FontCache::PlatformFallbackFontForCharacter on Linux:
// the face that sets r when the list's faces lack it, or nil.
func (l *Library) fallbackFor(r rune, res *resolution) *Resolved {
	q := res.query
	bold := q.Weight >= boldThreshold
	italic := q.Style != style.FontNormal
	if (bold || italic) && len(q.Families) > 0 {
		// FallbackOnStandardFontStyle: the first family as named (no
		// generic settings), at normal weight and style.
		plain := Query{Weight: 400, Stretch: q.Stretch}
		if fc := l.platformFamily(q.Families[0], plain); fc != nil && fc.covers(r) {
			return l.fallbackResolved(fc, bold, italic)
		}
	}
	fc := l.systemFallback(r)
	if fc == nil {
		return nil
	}
	// The face fontconfig gives is regular and upright; Blink synthesises
	// what the text asks.
	isBold, isItalic := fc.fcWeight > fcWeightMedium, fc.slant != 0
	return l.fallbackResolved(fc, bold && !isBold, italic && !isItalic)
}

// emojiFallback is PlatformFallbackFontForCharacter for an emoji run:
// fontconfig's face for U+1F46A FAMILY (Blink's stand-in for "an emoji
// font"), without the first family's plain style, or nil.
func (l *Library) emojiFallback(res *resolution) *Resolved {
	fc := l.systemFallback(0x1F46A)
	if fc == nil {
		return nil
	}
	q := res.query
	return l.fallbackResolved(fc, q.Weight >= boldThreshold && fc.fcWeight <= fcWeightMedium,
		q.Style != style.FontNormal && fc.slant == 0)
}

// fcWeightMedium is FC_WEIGHT_MEDIUM: heavier faces count as bold.
const fcWeightMedium = 100

// lastResort is FontCache::GetLastResortFallbackFont: the family of the
// list's first generic name as fontconfig knows it ("sans-serif", "serif",
// "monospace", "cursive", "fantasy"; none for a list without one), else
// "Sans", else "Arial", in the text's weight and style.
func (l *Library) lastResort(res *resolution) *Resolved {
	q := res.query
	name := ""
	for _, f := range q.Families {
		switch g := strings.ToLower(f); g {
		case "serif", "sans-serif", "monospace", "cursive", "fantasy":
			name = g
		}
		if name != "" {
			break
		}
	}
	for _, fam := range []string{name, "Sans", "Arial"} {
		if fc := l.matchFamily(fam, q); fc != nil {
			return l.synth(fc, q)
		}
	}
	return nil
}

// platformFamily is FontCache::GetFontPlatformData for a family name as
// written: fontconfig's answer if Skia accepts it, else Blink's alternate
// name's.
func (l *Library) platformFamily(name string, q Query) *face {
	if fc := l.matchFamily(name, q); fc != nil {
		return fc
	}
	if alt := alternateFamily(name); alt != "" {
		return l.matchFamily(alt, q)
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

// boldThreshold is Blink's kBoldThreshold: weights from 600 are bold.
const boldThreshold = 600

func (l *Library) fallbackResolved(fc *face, fakeBold, fakeItalic bool) *Resolved {
	if fc.load() != nil {
		return nil
	}
	return l.intern(Resolved{Font: fc.font, Family: fc.info.families[0], FakeBold: fakeBold, FakeItalic: fakeItalic, face: fc})
}
