package fonts

import (
	"unicode"

	"github.com/go-text/typesetting/language"
)

// item is a range of text Blink shapes with one font fallback iterator
// (RunSegmenter): one script, one emoji presentation, and for synthesised
// small capitals one case.
type item struct {
	start, end int
	script     language.Script
	emoji      bool // emoji presentation (FontFallbackPriority kEmojiEmoji)
	small      bool // lowercase set as capitals at 0.7 of the size
}

// itemize splits text as Blink's RunSegmenter does (scripts as
// ScriptRunIterator resolves them, emoji presentation as SymbolsIterator
// finds it) and, when small capitals are synthesised, where the case
// changes (SmallCapsIterator). Emoji presentation matters even without an
// emoji font: Chromium's PDFs show "😀 ₿ ✔" falling back as two runs, the
// emoji and the rest, each with its own fallback. Common and inherited characters (spaces,
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
		emoji := isEmojiPresentation(r)
		if cur.emoji && started && (r == 0x200D || r == 0xFE0F || r >= 0x1F3FB && r <= 0x1F3FF || r >= 0xE0020 && r <= 0xE007F) {
			emoji = true // joiners, VS16, skin tones and tags stay in the sequence
		}
		if !started {
			cur = item{start: i, script: sc, emoji: emoji, small: small}
			started = true
			continue
		}
		split := small != cur.small || emoji != cur.emoji
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
			cur = item{start: i, script: sc, emoji: emoji, small: small}
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

// isEmojiPresentation reports characters whose default presentation is
// emoji (Unicode's Emoji_Presentation property).
func isEmojiPresentation(r rune) bool {
	if r < 0x231A {
		return false
	}
	if r >= 0x1F000 {
		switch {
		case r == 0x1F004, r == 0x1F0CF, r == 0x1F18E, r >= 0x1F191 && r <= 0x1F19A,
			r >= 0x1F1E6 && r <= 0x1F1FF, r == 0x1F201, r == 0x1F21A, r == 0x1F22F,
			r >= 0x1F232 && r <= 0x1F236, r >= 0x1F238 && r <= 0x1F23A, r >= 0x1F250 && r <= 0x1F251,
			r >= 0x1F300 && r <= 0x1F320, r >= 0x1F32D && r <= 0x1F335, r >= 0x1F337 && r <= 0x1F37C,
			r >= 0x1F37E && r <= 0x1F393, r >= 0x1F3A0 && r <= 0x1F3CA, r >= 0x1F3CF && r <= 0x1F3D3,
			r >= 0x1F3E0 && r <= 0x1F3F0, r == 0x1F3F4, r >= 0x1F3F8 && r <= 0x1F43E, r == 0x1F440,
			r >= 0x1F442 && r <= 0x1F4FC, r >= 0x1F4FF && r <= 0x1F53D, r >= 0x1F54B && r <= 0x1F54E,
			r >= 0x1F550 && r <= 0x1F567, r == 0x1F57A, r >= 0x1F595 && r <= 0x1F596, r == 0x1F5A4,
			r >= 0x1F5FB && r <= 0x1F64F, r >= 0x1F680 && r <= 0x1F6C5, r == 0x1F6CC,
			r >= 0x1F6D0 && r <= 0x1F6D2, r >= 0x1F6D5 && r <= 0x1F6D7, r >= 0x1F6DC && r <= 0x1F6DF,
			r >= 0x1F6EB && r <= 0x1F6EC, r >= 0x1F6F4 && r <= 0x1F6FC, r >= 0x1F7E0 && r <= 0x1F7EB,
			r == 0x1F7F0, r >= 0x1F90C && r <= 0x1F93A, r >= 0x1F93C && r <= 0x1F945,
			r >= 0x1F947 && r <= 0x1F9FF, r >= 0x1FA70 && r <= 0x1FAFF:
			return true
		}
		return false
	}
	switch r {
	case 0x231A, 0x231B, 0x23E9, 0x23EA, 0x23EB, 0x23EC, 0x23F0, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615,
		0x267F, 0x2693, 0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE, 0x26D4, 0x26EA,
		0x26F2, 0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A, 0x270B, 0x2728, 0x274C, 0x274E, 0x2753,
		0x2754, 0x2755, 0x2757, 0x2795, 0x2796, 0x2797, 0x27B0, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B55:
		return true
	}
	return r >= 0x2648 && r <= 0x2653
}
