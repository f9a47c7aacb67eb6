package pdftemplate

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// pageFont is what the filler knows of a font a page's text is shown in:
// how to write a character in it, if it has the glyph, and how far it
// moves. A value set in the embedded font is exactly the original's face.
type pageFont struct {
	width int // bytes of a code: 1, or 2 for Identity-encoded CID fonts; 0 unknown
	// codes maps a character to its code, for the characters the font
	// has a glyph for.
	codes map[rune][]byte
	// advance is a code's width in thousandths of the font size.
	advance func(code []byte) (float64, bool)
}

// wordSpace is the gap a space is set as in a font without a space glyph
// (TeX's fonts, whose spaces are gaps): a third of the font size, TeX's
// own word space in Computer Modern.
const wordSpace = 333

// encoded is a value written in a font.
type encoded struct {
	// tj is the TJ operands (hex strings, and gaps for spaces the font
	// has no glyph for); advance how far the glyphs move the text position
	// in thousandths of the font size, before character and word spacing.
	tj      []byte
	advance float64
	// glyphs and spaces count the codes that character spacing, and word
	// spacing (single-byte code 32), apply to.
	glyphs, spaces int
}

// encode writes s in the font. When the font lacks a glyph it returns the
// first character it lacks.
func (f *pageFont) encode(s string) (e encoded, missing rune, ok bool) {
	if f == nil || f.codes == nil || f.advance == nil {
		return encoded{}, 0, false
	}
	var tj []byte
	var advance float64
	var run []byte
	flush := func() {
		if len(run) > 0 {
			tj = append(tj, "<"+hex.EncodeToString(run)+">"...)
			run = nil
		}
	}
	for _, r := range s {
		code, ok := f.codes[r]
		var w float64
		if ok {
			w, ok = f.advance(code)
		}
		if !ok && r == ' ' {
			flush()
			tj = append(tj, fmt.Sprintf(" %d ", -wordSpace)...)
			advance += wordSpace
			continue
		}
		if !ok {
			return encoded{}, r, false
		}
		run = append(run, code...)
		advance += w
		e.glyphs++
		if len(code) == 1 && code[0] == ' ' {
			e.spaces++
		}
	}
	flush()
	e.tj, e.advance = tj, advance
	return e, 0, e.glyphs > 0
}

// readFont reads a font resource of a page.
func readPageFont(ctx *model.Context, resources types.Dict, name string) *pageFont {
	if resources == nil || name == "" {
		return nil
	}
	fonts, err := ctx.DereferenceDict(resources["Font"])
	if err != nil || fonts == nil {
		return nil
	}
	font, err := ctx.DereferenceDict(fonts[name])
	if err != nil || font == nil {
		return nil
	}
	pf := &pageFont{}
	subtype, _ := font["Subtype"].(types.Name)
	if subtype == "Type0" {
		if enc, _ := font["Encoding"].(types.Name); enc != "Identity-H" && enc != "Identity-V" {
			return pf
		}
		pf.width = 2
		descendants, err := ctx.DereferenceArray(font["DescendantFonts"])
		if err != nil || len(descendants) == 0 {
			return pf
		}
		cid, err := ctx.DereferenceDict(descendants[0])
		if err != nil || cid == nil {
			return pf
		}
		pf.advance = cidWidths(ctx, cid)
	} else {
		pf.width = 1
		pf.advance = simpleWidths(ctx, font)
	}
	pf.codes = toUnicodeCodes(ctx, font, pf.width)
	if enc, _ := font["Encoding"].(types.Name); pf.codes == nil && pf.width == 1 && enc == "WinAnsiEncoding" {
		pf.codes = winAnsiCodes()
	}
	return pf
}

// winAnsiCodes maps the characters of WinAnsiEncoding to their codes.
func winAnsiCodes() map[rune][]byte {
	out := map[rune][]byte{}
	for c := 0x20; c < 0x7f; c++ {
		out[rune(c)] = []byte{byte(c)}
	}
	for c := 0xa0; c <= 0xff; c++ {
		out[rune(c)] = []byte{byte(c)}
	}
	for i, r := range []rune(winAnsiHigh) {
		if r != '?' {
			out[r] = []byte{byte(0x80 + i)}
		}
	}
	return out
}

// winAnsiHigh is WinAnsiEncoding's 0x80–0x9F ('?' where it has nothing).
const winAnsiHigh = "€?‚ƒ„…†‡ˆ‰Š‹Œ?Ž??‘’“”•–—˜™š›œ?žŸ"

// simpleWidths reads a simple font's /FirstChar and /Widths. A code the
// array gives no width (or 0) is taken as a glyph the subset lacks.
func simpleWidths(ctx *model.Context, font types.Dict) func([]byte) (float64, bool) {
	first, err := ctx.DereferenceInteger(font["FirstChar"])
	if err != nil || first == nil {
		return nil
	}
	arr, err := ctx.DereferenceArray(font["Widths"])
	if err != nil {
		return nil
	}
	widths := make([]float64, len(arr))
	for i, o := range arr {
		widths[i], _ = ctx.DereferenceNumber(o)
	}
	return func(code []byte) (float64, bool) {
		i := int(code[0]) - first.Value()
		if i < 0 || i >= len(widths) || widths[i] <= 0 {
			return 0, false
		}
		return widths[i], true
	}
}

// maxFontEntries bounds the codes read from one font's /W array or
// ToUnicode map: a crafted font could otherwise ask for millions (a font
// has at most 65,536 glyphs).
const maxFontEntries = 1 << 16

// cidWidths reads a CID font's /W and /DW.
func cidWidths(ctx *model.Context, cid types.Dict) func([]byte) (float64, bool) {
	dw := 1000.0
	if v, err := ctx.DereferenceNumber(cid["DW"]); err == nil && cid["DW"] != nil {
		dw = v
	}
	widths := map[int]float64{}
	if arr, err := ctx.DereferenceArray(cid["W"]); err == nil {
		for i := 0; i < len(arr); {
			c, err := ctx.DereferenceNumber(arr[i])
			if err != nil || i+1 >= len(arr) {
				break
			}
			if list, err := ctx.DereferenceArray(arr[i+1]); err == nil && list != nil {
				for k, o := range list {
					if len(widths) >= maxFontEntries {
						break
					}
					widths[int(c)+k], _ = ctx.DereferenceNumber(o)
				}
				i += 2
				continue
			}
			if i+2 >= len(arr) {
				break
			}
			last, err1 := ctx.DereferenceNumber(arr[i+1])
			w, err2 := ctx.DereferenceNumber(arr[i+2])
			if err1 != nil || err2 != nil || last-c > 65535 {
				break
			}
			for k := int(c); k <= int(last) && len(widths) < maxFontEntries; k++ {
				widths[k] = w
			}
			i += 3
		}
	}
	return func(code []byte) (float64, bool) {
		cid := int(code[0])<<8 | int(code[1])
		if w, ok := widths[cid]; ok {
			return w, true
		}
		return dw, true
	}
}

// toUnicodeCodes reverses a font's /ToUnicode CMap: for each character a
// single code maps to, that code. Codes of other widths, and characters
// several codes share (a ligature's "fi"), are left out.
func toUnicodeCodes(ctx *model.Context, font types.Dict, width int) map[rune][]byte {
	sd, _, err := ctx.DereferenceStreamDict(font["ToUnicode"])
	if err != nil || sd == nil {
		return nil
	}
	if err := sd.Decode(); err != nil {
		return nil
	}
	out := map[rune][]byte{}
	entries := 0
	add := func(code []byte, dst []byte) {
		if entries++; len(code) != width || entries > maxFontEntries {
			return
		}
		rs := utf16Runes(dst)
		if len(rs) != 1 {
			return
		}
		if _, taken := out[rs[0]]; !taken {
			out[rs[0]] = append([]byte(nil), code...)
		}
	}
	toks := cmapTokens(sd.Content)
	for i := 0; i < len(toks); i++ {
		switch string(toks[i]) {
		case "beginbfchar":
			for i++; i+1 < len(toks) && string(toks[i]) != "endbfchar"; i += 2 {
				add(hexTok(toks[i]), hexTok(toks[i+1]))
			}
		case "beginbfrange":
			for i++; i+2 < len(toks) && string(toks[i]) != "endbfrange"; {
				lo, hi := hexTok(toks[i]), hexTok(toks[i+1])
				if len(lo) != len(hi) || len(lo) == 0 || len(lo) > 4 {
					return out
				}
				from, to := beUint(lo), beUint(hi)
				if to < from || to-from > 65535 {
					return out
				}
				if entries > maxFontEntries {
					return out
				}
				if string(toks[i+2]) == "[" {
					j := i + 3
					for k := from; j < len(toks) && string(toks[j]) != "]"; j, k = j+1, k+1 {
						if k <= to {
							add(beBytes(k, len(lo)), hexTok(toks[j]))
						}
					}
					i = j + 1
					continue
				}
				dst := hexTok(toks[i+2])
				for k := from; k <= to && len(dst) > 0 && entries <= maxFontEntries; k++ {
					d := append([]byte(nil), dst...)
					// The last byte counts up along the range.
					d[len(d)-1] += byte(k - from)
					add(beBytes(k, len(lo)), d)
				}
				i += 3
			}
		}
	}
	return out
}

// cmapTokens splits a CMap into hex strings (with their brackets),
// brackets and words.
func cmapTokens(b []byte) [][]byte {
	var toks [][]byte
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case isSpace(c):
			i++
		case c == '%':
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
		case c == '<' && i+1 < len(b) && b[i+1] != '<':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return toks
			}
			toks = append(toks, b[i:i+j+1])
			i += j + 1
		case c == '[' || c == ']':
			toks = append(toks, b[i:i+1])
			i++
		default:
			j := i + 1
			for j < len(b) && !isSpace(b[j]) && b[j] != '<' && b[j] != '[' && b[j] != ']' {
				j++
			}
			toks = append(toks, b[i:j])
			i = j
		}
	}
	return toks
}

func hexTok(t []byte) []byte {
	if len(t) < 2 || t[0] != '<' || t[len(t)-1] != '>' {
		return nil
	}
	out, err := hex.DecodeString(string(bytes.Join(bytes.Fields(t[1:len(t)-1]), nil)))
	if err != nil {
		return nil
	}
	return out
}

func beUint(b []byte) int {
	n := 0
	for _, c := range b {
		n = n<<8 | int(c)
	}
	return n
}

func beBytes(n, width int) []byte {
	out := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		out[i] = byte(n)
		n >>= 8
	}
	return out
}

func utf16Runes(b []byte) []rune {
	if len(b)%2 != 0 {
		return nil
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return utf16.Decode(u)
}
