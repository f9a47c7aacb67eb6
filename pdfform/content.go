package pdfform

import (
	"bytes"
	"errors"
)

// ErrNotEditable is a page whose content the filler cannot map to the text
// objects PDFium reports.
var ErrNotEditable = errors.New("the page's text cannot be edited in place")

// textOp is one text-showing operator in a content stream, with its
// operands: bytes [start, end).
type textOp struct {
	start, end int
	op         string // Tj, TJ, ' or "
}

func isSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isDelim(c byte) bool {
	return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == '/' || c == '%'
}

// textOps lists the text-showing operators of a content stream in order.
func textOps(b []byte) ([]textOp, error) {
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
			switch word {
			case "Tj", "TJ", "'", `"`:
				ops = append(ops, textOp{start: operands, end: i, op: word})
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

// removeTextOps returns b without the text-showing operators ranked in
// drop (their order among all of b's). ' and " also move to the next line,
// and " sets the spacing: that part of them stays.
func removeTextOps(b []byte, ops []textOp, drop map[int]bool) []byte {
	var out bytes.Buffer
	last := 0
	for rank, op := range ops {
		if !drop[rank] {
			continue
		}
		out.Write(b[last:op.start])
		switch op.op {
		case "'":
			out.WriteString("T*")
		case `"`:
			// aw ac string " → aw Tw ac Tc T*
			fields := bytes.Fields(b[op.start:op.end])
			if len(fields) >= 4 {
				out.Write(fields[0])
				out.WriteString(" Tw ")
				out.Write(fields[1])
				out.WriteString(" Tc T*")
			}
		}
		last = op.end
	}
	out.Write(b[last:])
	return out.Bytes()
}
