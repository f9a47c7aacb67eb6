package pdftemplate

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
)

// ErrNotEditable is a page whose content the filler cannot map to the text
// objects PDFium reports.
var ErrNotEditable = errors.New("the page's text cannot be edited in place")

// textOp is one text-showing operator in a content stream, with its
// operands: bytes [start, end).
type textOp struct {
	start, end int
	op         string // Tj, TJ, ' or "
	// font is the name of the font resource the operator shows text in,
	// and size the size operand it was set at, as written.
	font, size string
	// tc and tw are the character and word spacing in force (text space
	// units); a " operator sets its own.
	tc, tw float64
}

// textState is what the scan of a page's content streams carries from one
// operator to the next, and from one stream to the next: the text state
// parameters, which q and Q save and restore.
type textState struct {
	cur   textParams
	saved []textParams
}

type textParams struct {
	font, size string
	tc, tw     float64
}

func isSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isDelim(c byte) bool {
	return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == '/' || c == '%'
}

// textOps lists the text-showing operators of a content stream in order,
// leaving out those that show no character (an empty string, a TJ of
// adjustments only), for which PDFium makes no text object. st carries
// the text state from the page's previous streams, and on to its next.
func textOps(b []byte, st *textState) ([]textOp, error) {
	var ops []textOp
	operands := -1 // start of the operands since the last operator
	depth := 0     // inside [ ] or << >>
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '%':
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
			continue
		}
		if operands < 0 {
			operands = i
		}
		switch {
		case c == '(':
			n, err := skipLiteral(b, i)
			if err != nil {
				return nil, err
			}
			i = n
		case c == '<' && i+1 < len(b) && b[i+1] == '<':
			depth++
			i += 2
		case c == '>' && i+1 < len(b) && b[i+1] == '>':
			depth--
			i += 2
		case c == '<':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return nil, errors.New("content: unterminated hex string")
			}
			i += j + 1
		case c == '[':
			depth++
			i++
		case c == ']':
			depth--
			i++
		case c == '/':
			i++
			for i < len(b) && !isSpace(b[i]) && !isDelim(b[i]) {
				i++
			}
		default:
			j := i
			for j < len(b) && !isSpace(b[j]) && !isDelim(b[j]) {
				j++
			}
			if j == i { // a stray delimiter
				i++
				continue
			}
			word := string(b[i:j])
			i = j
			if depth > 0 || isNumber(word) || word == "true" || word == "false" || word == "null" {
				continue
			}
			// An operator.
			args := b[operands : i-len(word)]
			number := func(k int) (float64, bool) { // the k-th operand of a few numbers
				f := bytes.Fields(args)
				if k >= len(f) {
					return 0, false
				}
				v, err := strconv.ParseFloat(string(f[k]), 64)
				return v, err == nil
			}
			switch word {
			case "Tj", "TJ", "'", `"`:
				if word == `"` {
					if v, ok := number(0); ok {
						st.cur.tw = v
					}
					if v, ok := number(1); ok {
						st.cur.tc = v
					}
				}
				if showsText(args) {
					ops = append(ops, textOp{start: operands, end: i, op: word, font: st.cur.font, size: st.cur.size, tc: st.cur.tc, tw: st.cur.tw})
				}
			case "Tf":
				if f := bytes.Fields(args); len(f) == 2 && len(f[0]) > 1 && f[0][0] == '/' {
					st.cur.font, st.cur.size = string(f[0][1:]), string(f[1])
				}
			case "Tc":
				if v, ok := number(0); ok {
					st.cur.tc = v
				}
			case "Tw":
				if v, ok := number(0); ok {
					st.cur.tw = v
				}
			case "q":
				if len(st.saved) < 1024 {
					st.saved = append(st.saved, st.cur)
				}
			case "Q":
				if n := len(st.saved); n > 0 {
					st.cur, st.saved = st.saved[n-1], st.saved[:n-1]
				}
			case "BI":
				// An inline image: its data runs to "EI" between whitespace.
				k := bytes.Index(b[i:], []byte("ID"))
				if k < 0 {
					return nil, errors.New("content: inline image without ID")
				}
				i += k + 3
				for i < len(b) && !(isSpace(b[i-1]) && b[i] == 'E' && i+1 < len(b) && b[i+1] == 'I' && (i+2 == len(b) || isSpace(b[i+2]))) {
					i++
				}
				i += 2
			}
			operands = -1
		}
	}
	return ops, nil
}

// showsText reports whether a text operator's operands hold a non-empty
// string.
func showsText(args []byte) bool {
	ops, err := parseOperands(args)
	if err != nil {
		return true // counted, so that a mismatch with PDFium is found
	}
	for _, o := range ops {
		if o.isStr && len(o.str) > 0 {
			return true
		}
	}
	return false
}

func skipLiteral(b []byte, i int) (int, error) {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, errors.New("content: unterminated string")
}

func isNumber(w string) bool {
	digits := 0
	for i, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case (c == '-' || c == '+') && i == 0, c == '.':
		default:
			return false
		}
	}
	return digits > 0
}

// editTextOps returns b with the text-showing operators ranked in edits
// (their order among all of b's) replaced: by the given bytes, or, for
// nil, removed. A removed ' or " still moves to the next line, and " still
// sets the spacing.
func editTextOps(b []byte, ops []textOp, edits map[int][]byte) []byte {
	var out bytes.Buffer
	last := 0
	for rank, op := range ops {
		edit, ok := edits[rank]
		if !ok {
			continue
		}
		out.Write(b[last:op.start])
		// Spaces around the replacement: the operator may have touched
		// the token before it, as in (a)Tj(b)'.
		out.WriteByte(' ')
		switch {
		case edit != nil:
			out.Write(edit)
		case op.op == "'":
			out.WriteString("T*")
		case op.op == `"`:
			// aw ac string " → aw Tw ac Tc T*
			if args, err := parseOperands(b[op.start:op.end]); err == nil && len(args) >= 2 && !args[0].isStr && !args[1].isStr {
				out.WriteString(string(args[0].num) + " Tw " + string(args[1].num) + " Tc T*")
			} else {
				out.WriteString("T*")
			}
		}
		out.WriteByte(' ')
		last = op.end
	}
	out.Write(b[last:])
	return out.Bytes()
}

// operand is a string or a number of a text operator.
type operand struct {
	str   []byte
	num   []byte // as written
	isStr bool
}

// parseOperands reads the strings and numbers of a text operator's
// operands (b holds them and the operator).
func parseOperands(b []byte) ([]operand, error) {
	var out []operand
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case isSpace(c) || c == '[' || c == ']':
			i++
		case c == '(':
			end, err := skipLiteral(b, i)
			if err != nil {
				return nil, err
			}
			out = append(out, operand{str: unescape(b[i+1 : end-1]), isStr: true})
			i = end
		case c == '<':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return nil, errors.New("content: unterminated hex string")
			}
			out = append(out, operand{str: unhex(b[i+1 : i+j]), isStr: true})
			i += j + 1
		default:
			j := i
			for j < len(b) && !isSpace(b[j]) && !isDelim(b[j]) {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("content: unexpected %q in a text operator", c)
			}
			if w := b[i:j]; isNumber(string(w)) {
				out = append(out, operand{num: w})
			}
			i = j // the operator itself is not an operand
		}
	}
	return out, nil
}

// unescape decodes a literal string's body.
func unescape(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 == len(b) {
			if c == '\r' { // an end of line in a string is a line feed
				if i+1 < len(b) && b[i+1] == '\n' {
					i++
				}
				c = '\n'
			}
			out = append(out, c)
			continue
		}
		i++
		switch e := b[i]; e {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
		case '\n':
		default:
			if e >= '0' && e <= '7' {
				v, n := 0, 0
				for n < 3 && i < len(b) && b[i] >= '0' && b[i] <= '7' {
					v = v*8 + int(b[i]-'0')
					i++
					n++
				}
				i--
				out = append(out, byte(v))
			} else {
				out = append(out, e)
			}
		}
	}
	return out
}

// unhex decodes a hex string's body; a last odd digit is followed by 0.
func unhex(b []byte) []byte {
	var digits []byte
	for _, c := range b {
		if !isSpace(c) {
			digits = append(digits, c)
		}
	}
	if len(digits)%2 == 1 {
		digits = append(digits, '0')
	}
	out := make([]byte, len(digits)/2)
	hex.Decode(out, digits)
	return out
}

// rewriteTextOp returns a text operator with the glyphs of drops left out,
// each run of them replaced by a TJ adjustment of its advance, so every
// glyph it keeps stays where it was. width is the bytes of one character
// code (1, or 2 for a CID font with Identity encoding).
//
// Each of inserts writes a value's codes at the place of the drop that
// starts at its from, followed by the adjustment that keeps the rest of
// the operator where it was.
func rewriteTextOp(b []byte, op textOp, width int, drops []Part, inserts []insertion) ([]byte, error) {
	body := b[op.start:op.end]
	ops, err := parseOperands(body)
	if err != nil {
		return nil, err
	}
	var prefix string
	switch op.op {
	case "'":
		prefix = "T* "
	case `"`:
		// aw ac string " → aw Tw ac Tc T* [...] TJ
		if len(ops) != 3 || ops[0].isStr || ops[1].isStr {
			return nil, errors.New(`content: a " operator without its spacing`)
		}
		prefix = string(ops[0].num) + " Tw " + string(ops[1].num) + " Tc T* "
		ops = ops[2:]
	}
	dropped := func(g int) (Part, bool) {
		for _, d := range drops {
			if g >= d.From && g < d.To {
				return d, true
			}
		}
		return Part{}, false
	}
	var out bytes.Buffer
	out.WriteString(prefix + "[")
	glyph := 0
	var pending []byte // a kept string not yet written
	flushStr := func() {
		if len(pending) > 0 {
			out.WriteString("<" + hex.EncodeToString(pending) + ">")
			pending = nil
		}
	}
	inDrop := false
	var held [][]byte // adjustments after a dropped run: kept only if no glyph follows
	for _, o := range ops {
		if !o.isStr {
			if inDrop {
				held = append(held, o.num)
				continue
			}
			flushStr()
			out.WriteString(" " + string(o.num) + " ")
			continue
		}
		if len(o.str)%width != 0 {
			return nil, fmt.Errorf("%w: a string of %d bytes in a font of %d-byte codes", ErrNotEditable, len(o.str), width)
		}
		for i := 0; i < len(o.str); i += width {
			if d, ok := dropped(glyph); ok {
				if glyph == d.From {
					flushStr()
					held = nil
					adjust := -d.Advance
					var ins *insertion
					for k := range inserts {
						if inserts[k].from == d.From {
							ins = &inserts[k]
						}
					}
					switch {
					case ins != nil && ins.from == d.From && ins.size > 0:
						// The value at a smaller size: its own TJ between
						// two Tf, the second setting the size back; the
						// adjustments count in the smaller size.
						num := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
						out.WriteString("] TJ /" + op.font + " " + num(ins.size) + " Tf [ " + num(-ins.lead) + " ")
						out.Write(ins.tj)
						out.WriteString(" " + num(ins.advance+ins.lead+ins.spacing*1000/ins.size-d.Advance*ins.tf/ins.size) + " ] TJ /" + op.font + " " + op.size + " Tf [")
						inDrop = true
						glyph++
						continue
					case ins != nil && ins.from == d.From:
						if ins.lead != 0 {
							out.WriteString(" " + strconv.FormatFloat(-ins.lead, 'f', 2, 64) + " ")
						}
						out.Write(ins.tj)
						adjust += ins.advance + ins.lead
						if ins.tf > 0 {
							adjust += ins.spacing * 1000 / ins.tf
						}
					}
					out.WriteString(" " + strconv.FormatFloat(adjust, 'f', 2, 64) + " ")
				}
				inDrop = true
			} else {
				if inDrop {
					// The dropped run's advance already covers what it
					// held back.
					inDrop, held = false, nil
				}
				pending = append(pending, o.str[i:i+width]...)
			}
			glyph++
		}
	}
	flushStr()
	for _, h := range held {
		out.WriteString(" " + string(h) + " ")
	}
	if want := drops[0].Glyphs; glyph != want {
		return nil, fmt.Errorf("%w: an operator shows %d codes where PDFium saw %d glyphs", ErrNotEditable, glyph, want)
	}
	out.WriteString("] TJ")
	return out.Bytes(), nil
}
