package handlebars

import "regexp"

// Whitespace control, applied once to a parsed tree, as Handlebars.js's
// whitespace-control pass defines it (and raymond follows):
//   - a ~ in a tag removes all whitespace on that side of it, up to the
//     next tag;
//   - a tag that stands alone on its line (blocks' open, {{else}} and close
//     tags, comments) removes that line's indentation and line break, so
//     that control flow does not leave blank lines in the output.
// The pass recurses over blocks, whose nesting Parse bounds.

var (
	spaceAtStart          = regexp.MustCompile(`^[ \t]*\r?\n?`)
	allSpaceAtStart       = regexp.MustCompile(`^\s+`)
	spaceAtEnd            = regexp.MustCompile(`[ \t]+$`)
	allSpaceAtEnd         = regexp.MustCompile(`\s+$`)
	lineEndsBlank         = regexp.MustCompile(`\r?\n\s*?$`)
	textStartsOrLineBlank = regexp.MustCompile(`(^|\r?\n)\s*?$`)
	lineStartsBlank       = regexp.MustCompile(`^\s*?\r?\n`)
	textEndsOrLineBlank   = regexp.MustCompile(`^\s*?(\r?\n|$)`)
)

func stripWhitespace(root *program) { stripProgram(root, true) }

// stripProgram applies each statement's whitespace rules to its
// neighbours, after those of the blocks inside it.
func stripProgram(prog *program, root bool) {
	body := prog.body
	for i, s := range body {
		var st *strip
		switch s := s.(type) {
		case *mustache:
			st = s.strip
		case *comment:
			st = &strip{open: s.strip.open, close: s.strip.close, inlineStandalone: true}
		case *block:
			st = stripBlock(s)
		}
		if st == nil {
			continue
		}
		before := blankBefore(body, i, root)
		after := blankAfter(body, i, root)
		if st.close {
			trimStart(body, i+1, true)
		}
		if st.open && i > 0 {
			trimEnd(body, i-1, true)
		}
		if st.inlineStandalone && before && after {
			trimStart(body, i+1, false)
			trimEnd(body, i-1, false)
		}
		b, ok := s.(*block)
		if !ok {
			continue
		}
		if st.openStandalone && before {
			inner := b.prog
			if inner == nil {
				inner = b.inverse
			}
			trimStart(inner.body, 0, false)
			trimEnd(body, i-1, false)
		}
		if st.closeStandalone && after {
			inner := b.inverse
			if inner == nil {
				inner = b.prog
			}
			trimStart(body, i+1, false)
			trimEnd(inner.body, len(inner.body)-1, false)
		}
	}
}

// stripBlock applies the rules inside a block (its ~ and a standalone
// {{else}}) and returns what its tags ask of the text around it.
func stripBlock(b *block) *strip {
	if b.prog != nil {
		stripProgram(b.prog, false)
	}
	if b.inverse != nil {
		stripProgram(b.inverse, false)
	}
	prog, inv := b.prog, b.inverse
	if prog == nil {
		prog, inv = inv, nil
	}
	firstInv, lastInv := inv, inv
	if inv != nil && inv.chained {
		firstInv = inv.body[0].(*block).prog
		for lastInv.chained {
			lastInv = lastInv.body[len(lastInv.body)-1].(*block).prog
		}
	}
	closeProg := firstInv
	if closeProg == nil {
		closeProg = prog
	}
	st := &strip{
		open:            b.openStrip != nil && b.openStrip.open,
		close:           b.closeStrip != nil && b.closeStrip.close,
		openStandalone:  blankAfter(prog.body, -1, false),
		closeStandalone: blankBefore(closeProg.body, len(closeProg.body), false),
	}
	if b.openStrip != nil && b.openStrip.close {
		trimStart(prog.body, 0, true)
	}
	closeOpen := b.closeStrip != nil && b.closeStrip.open
	if inv == nil {
		if closeOpen {
			trimEnd(prog.body, len(prog.body)-1, true)
		}
		return st
	}
	if b.invStrip != nil {
		if b.invStrip.open {
			trimEnd(prog.body, len(prog.body)-1, true)
		}
		if b.invStrip.close {
			trimStart(firstInv.body, 0, true)
		}
	}
	if closeOpen {
		trimEnd(lastInv.body, len(lastInv.body)-1, true)
	}
	if blankBefore(prog.body, len(prog.body), false) && blankAfter(firstInv.body, -1, false) {
		trimEnd(prog.body, len(prog.body)-1, false)
		trimStart(firstInv.body, 0, false)
	}
	return st
}

// trimStart removes the leading whitespace of body[j] when it is text: all
// of it, or that of its first line only once.
func trimStart(body []statement, j int, all bool) {
	t := textAt(body, j)
	if t == nil || (!all && t.rightStripped) {
		return
	}
	re := spaceAtStart
	if all {
		re = allSpaceAtStart
	}
	was := t.value
	t.value = re.ReplaceAllString(t.value, "")
	t.rightStripped = was != t.value
}

// trimEnd removes the trailing whitespace of body[j] when it is text.
func trimEnd(body []statement, j int, all bool) {
	t := textAt(body, j)
	if t == nil || (!all && t.leftStripped) {
		return
	}
	re := spaceAtEnd
	if all {
		re = allSpaceAtEnd
	}
	was := t.value
	t.value = re.ReplaceAllString(t.value, "")
	t.leftStripped = was != t.value
}

func textAt(body []statement, j int) *text {
	if j < 0 || j >= len(body) {
		return nil
	}
	t, _ := body[j].(*text)
	return t
}

// blankBefore says whether the line before body[i] is blank up to it: the
// text before it ends with a line break and spaces, or the template starts
// there.
func blankBefore(body []statement, i int, root bool) bool {
	if i < 1 {
		return root
	}
	t, ok := body[i-1].(*text)
	if !ok {
		return false
	}
	if t.value == "" && t.rightStripped {
		return true
	}
	if i > 1 || !root {
		return lineEndsBlank.MatchString(t.value)
	}
	return textStartsOrLineBlank.MatchString(t.value)
}

// blankAfter says whether the rest of body[i]'s line is blank: the text
// after it starts with spaces and a line break, or the template ends there.
func blankAfter(body []statement, i int, root bool) bool {
	if i+1 >= len(body) {
		return root
	}
	t, ok := body[i+1].(*text)
	if !ok {
		return false
	}
	if t.value == "" && t.leftStripped {
		return true
	}
	if i+2 > len(body) || !root {
		return lineStartsBlank.MatchString(t.value)
	}
	return textEndsOrLineBlank.MatchString(t.value)
}
