package pdftemplate

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrTooComplex is a PDF over a limit on what reading it may cost: how
// deep its objects nest, how many there are, how far its compressed
// streams expand, and the memory and time PDFium may spend on it. A
// small file can cost gigabytes and minutes (issue 24: 1 MB of Flate
// that inflates to 1 GiB), so these are checked before the deep work.
var ErrTooComplex = errors.New("the PDF is too complex to read")

// tooComplex is an ErrTooComplex naming the limit passed.
func tooComplex(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTooComplex, fmt.Sprintf(format, args...))
}

// check reads an upload's raw bytes, as a tokenizer that skips strings,
// comments and stream bodies, and refuses it when its objects nest deeper
// than the limit, when it has more objects than the limit, when its
// compressed streams expand beyond the limit, or when the content PDFium
// must parse (content streams, forms, object streams) passes its limit. It runs in Go before PDFium
// or pdfcpu see the file: pdfcpu parses nested objects recursively, and
// PDFium inflates a page's content whole, so either would pay for a bomb
// in full. A stream is inflated into a counter, never kept, so a bomb
// costs at most the limit's worth of inflating. A filter it cannot decode
// (LZW, images' codecs) ends its count there: what is left is PDFium's,
// under its instance's memory and time limits.
func check(pdf []byte, cfg Config) (checked, error) {
	c := &checker{cfg: cfg, pdf: pdf, streamAt: -1}
	c.lex = lexer{maxDepth: cfg.MaxDepth, emit: c.token}
	for c.pos = 0; c.pos < len(c.pdf); c.pos++ {
		b := c.pdf[c.pos]
		if b == '<' && c.lex.state == lexNormal && c.lex.depth == 0 {
			c.ltAt = c.pos
		}
		if err := c.lex.feed(b); err != nil {
			return c.checked, err
		}
		if c.err != nil {
			return c.checked, c.err
		}
		if c.streamAt >= 0 {
			if err := c.stream(); err != nil {
				return c.checked, err
			}
		}
	}
	return c.checked, nil
}

// checked is what a check counted, for the tests.
type checked struct {
	objects  int
	inflated int64
	content  int64
	depth    int
}

// checker is one check's state.
type checker struct {
	checked
	cfg Config
	pdf []byte
	pos int
	lex lexer
	// dictStart and dictEnd bound the last dictionary at the top level,
	// the one a stream keyword that follows it describes; ltAt is where a
	// '<' at the top level began.
	dictStart, dictEnd, ltAt int
	// streamAt is where a stream keyword ended, or -1.
	streamAt int
	err      error
}

// token sees the top level's tokens: objects are counted by their obj
// keywords, and a stream keyword marks a body to skip.
func (c *checker) token(kind tokKind, word []byte, depth int) {
	c.depth = max(c.depth, depth)
	switch {
	case kind == tokOpenDict && depth == 1:
		c.dictStart = c.ltAt
	case kind == tokCloseDict && depth == 0:
		c.dictEnd = c.pos + 1
	case kind == tokWord && depth == 0 && string(word) == "obj":
		c.count(1)
	case kind == tokWord && depth == 0 && string(word) == "stream":
		c.streamAt = c.pos
	}
}

// count adds n objects and refuses past the limit.
func (c *checker) count(n int) {
	c.objects += n
	if c.objects > c.cfg.MaxObjects && c.err == nil {
		c.err = tooComplex("it has more than %s objects", thousands(c.cfg.MaxObjects))
	}
}

// stream finds the body of the stream whose keyword ended at streamAt,
// decodes what it can of it into the inflation count (and, for a body
// of PDF syntax, into a tokenizer of its own), and moves past it.
func (c *checker) stream() error {
	at := c.streamAt
	c.streamAt = -1
	start := at + 1
	if c.pdf[at] == '\r' && start < len(c.pdf) && c.pdf[start] == '\n' {
		start++
	}
	var info streamInfo
	// The dictionary is the stream's when only white space stands
	// between it and the keyword.
	if c.dictEnd > c.dictStart && len(bytes.TrimSpace(c.pdf[c.dictEnd:at])) == len("stream") {
		info = readStreamDict(c.pdf[c.dictStart:c.dictEnd])
	}
	// The body ends where its Length says when the endstream keyword is
	// there, else at the first endstream: what PDFium does too.
	end := -1
	if info.length >= 0 && start+info.length <= len(c.pdf) &&
		bytes.HasPrefix(bytes.TrimLeft(c.pdf[start+info.length:], "\x00\t\n\f\r "), []byte("endstream")) {
		end = start + info.length
	} else if i := bytes.Index(c.pdf[start:], []byte("endstream")); i >= 0 {
		end = start + i
	} else {
		end = len(c.pdf)
	}
	if info.typ == "ObjStm" && info.n > 0 {
		c.count(info.n)
		if c.err != nil {
			return c.err
		}
	}
	if err := c.decode(c.pdf[start:end], info); err != nil {
		return err
	}
	c.pos = end - 1
	return nil
}

// decode runs a stream body through the filters it names, as far as it
// can, into the inflation count.
func (c *checker) decode(body []byte, info streamInfo) error {
	var r io.Reader = bytes.NewReader(body)
	decoded := false
	for _, f := range info.filters {
		next, ok := decoder(f, r)
		if !ok {
			break
		}
		r, decoded = next, true
	}
	var lex *lexer
	if info.syntax() {
		lex = &lexer{maxDepth: c.cfg.MaxDepth}
	}
	switch {
	case len(info.filters) == 0 && lex != nil:
		// A body as it stands in the file: nothing inflated, but content
		// all the same.
		if err := c.addContent(len(body)); err != nil {
			return err
		}
		for _, b := range body {
			if err := lex.feed(b); err != nil {
				return err
			}
		}
		return nil
	case !decoded:
		return nil
	}
	w := &inflateCounter{c: c, lex: lex}
	_, err := io.Copy(w, r)
	if errors.Is(err, ErrTooComplex) {
		return err
	}
	// A body its filters cannot decode is PDFium's to refuse or repair.
	return nil
}

// decoder returns a reader that decodes r with the named filter, for the
// filters whose output can be counted here.
func decoder(filter string, r io.Reader) (io.Reader, bool) {
	switch filter {
	case "FlateDecode", "Fl":
		return &inflater{src: r}, true
	case "ASCIIHexDecode", "AHx":
		return hex.NewDecoder(&hexBody{r: r}), true
	case "ASCII85Decode", "A85":
		return ascii85.NewDecoder(&a85Body{r: r}), true
	}
	return nil, false
}

// inflater reads a zlib stream, or a bare deflate stream when the zlib
// header is missing (some writers leave it out, and PDFium reads both).
type inflater struct {
	src io.Reader
	r   io.Reader
}

func (f *inflater) Read(p []byte) (int, error) {
	if f.r == nil {
		br := bufio.NewReader(f.src)
		if head, err := br.Peek(2); err == nil && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 && head[0]&0x0f == 8 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return 0, err
			}
			f.r = zr
		} else {
			f.r = flate.NewReader(br)
		}
	}
	return f.r.Read(p)
}

// hexBody ends an ASCIIHex body at its '>' and drops white space, which
// encoding/hex does not.
type hexBody struct {
	r    io.Reader
	done bool
}

func (h *hexBody) Read(p []byte) (int, error) {
	if h.done {
		return 0, io.EOF
	}
	n, err := h.r.Read(p)
	k := 0
	for _, b := range p[:n] {
		if b == '>' {
			h.done = true
			break
		}
		if !isSpace(b) {
			p[k] = b
			k++
		}
	}
	if k == 0 && err == nil && !h.done {
		return 0, nil
	}
	return k, err
}

// a85Body ends an ASCII85 body at its "~>".
type a85Body struct {
	r    io.Reader
	done bool
}

func (a *a85Body) Read(p []byte) (int, error) {
	if a.done {
		return 0, io.EOF
	}
	n, err := a.r.Read(p)
	if i := bytes.IndexByte(p[:n], '~'); i >= 0 {
		n, a.done = i, true
	}
	return n, err
}

// inflateCounter adds what a stream decodes to to the check's count, and
// stops the copy when the count passes the limit: the decoder is read no
// further, so a bomb costs the limit's worth of work, not its own.
type inflateCounter struct {
	c   *checker
	lex *lexer
}

func (w *inflateCounter) Write(p []byte) (int, error) {
	w.c.inflated += int64(len(p))
	if w.c.inflated > w.c.cfg.MaxInflatedBytes {
		return 0, tooComplex("its compressed streams expand to more than %s", megabytes(w.c.cfg.MaxInflatedBytes))
	}
	if w.lex != nil {
		if err := w.c.addContent(len(p)); err != nil {
			return 0, err
		}
		for _, b := range p {
			if err := w.lex.feed(b); err != nil {
				return 0, err
			}
		}
	}
	return len(p), nil
}

// addContent counts n bytes of content (PDF syntax in streams) and
// refuses past the limit.
func (c *checker) addContent(n int) error {
	c.content += int64(n)
	if c.content > c.cfg.MaxContentBytes {
		return tooComplex("its pages' content is more than %s", megabytes(c.cfg.MaxContentBytes))
	}
	return nil
}

// streamInfo is what a stream's dictionary says of it.
type streamInfo struct {
	length    int // -1 when not a direct number
	filters   []string
	typ       string
	subtype   string
	n         int
	otherKeys bool // a key besides Length, Filter, DecodeParms and DL
}

// syntax reports whether a stream's body is PDF syntax whose nesting is
// checked too: an object stream (its objects are parsed as the file's
// are) or what a page draws (a content stream's dictionary names only
// its length and filters; a form's has Subtype /Form). Other bodies
// (fonts, images, ICC profiles) are binary, and scanning them as syntax
// would find brackets by chance.
func (s streamInfo) syntax() bool {
	return s.typ == "ObjStm" || s.subtype == "Form" || !s.otherKeys
}

// readStreamDict reads the entries of a stream's dictionary that the
// check needs. The dictionary was tokenized already, within the nesting
// limit, so this second pass is cheap.
func readStreamDict(dict []byte) streamInfo {
	info := streamInfo{length: -1, n: -1}
	key, wantKey := "", true
	var last *int // the number a following "0 R" makes a reference
	lx := lexer{maxDepth: 1 << 30}
	lx.emit = func(kind tokKind, word []byte, depth int) {
		switch {
		case depth == 1 && kind == tokName && wantKey:
			key, wantKey, last = string(word), false, nil
			switch key {
			case "Length", "Filter", "DecodeParms", "DL":
			default:
				info.otherKeys = true
			}
		case depth == 1 && kind == tokWord && wantKey:
			if string(word) == "R" && last != nil {
				*last = -1 // an indirect length: not known here
			}
		case depth == 1 && kind == tokName:
			switch key {
			case "Filter":
				info.filters = []string{string(word)}
			case "Type":
				info.typ = string(word)
			case "Subtype":
				info.subtype = string(word)
			}
			wantKey = true
		case depth == 1 && kind == tokWord:
			v, err := strconv.Atoi(string(word))
			switch {
			case err != nil:
			case key == "Length" && v >= 0:
				info.length, last = v, &info.length
			case key == "N" && v >= 0:
				info.n, last = v, &info.n
			}
			wantKey = true
		case depth == 1 && kind == tokString:
			wantKey = true
		case depth == 1 && (kind == tokCloseArray || kind == tokCloseDict):
			wantKey = true
		case depth == 2 && kind == tokName && key == "Filter":
			info.filters = append(info.filters, string(word))
		}
	}
	for _, b := range dict {
		lx.feed(b)
	}
	lx.feed(' ')
	return info
}

// tokKind is a kind of token of PDF syntax.
type tokKind uint8

const (
	tokOpenDict tokKind = iota
	tokCloseDict
	tokOpenArray
	tokCloseArray
	tokName   // /Name, without its slash
	tokWord   // a number or a keyword
	tokString // (literal) or <hex>
)

// lexState is where a lexer is in PDF syntax.
type lexState uint8

const (
	lexNormal  lexState = iota
	lexComment          // % to the end of the line
	lexString           // inside ( ), parens deep
	lexHex              // inside < >
	lexLT               // after a '<': a dictionary or a hex string
	lexGT               // after a '>': a dictionary's end, or nothing
)

// lexer tokenizes PDF syntax a byte at a time, so a stream can be fed
// to it as it inflates, with nothing kept. It counts how deep arrays and
// dictionaries nest and refuses past maxDepth; emit, when set, sees each
// token with the depth after it.
type lexer struct {
	state    lexState
	depth    int
	maxDepth int
	parens   int
	escape   bool
	inWord   bool
	name     bool
	word     [32]byte // a token's first bytes: enough for the keys and keywords looked for
	n        int
	emit     func(kind tokKind, word []byte, depth int)
}

func (l *lexer) feed(c byte) error {
	switch l.state {
	case lexComment:
		if c == '\r' || c == '\n' {
			l.state = lexNormal
		}
		return nil
	case lexString:
		switch {
		case l.escape:
			l.escape = false
		case c == '\\':
			l.escape = true
		case c == '(':
			l.parens++
		case c == ')':
			if l.parens--; l.parens == 0 {
				l.state = lexNormal
				l.token(tokString)
			}
		}
		return nil
	case lexHex:
		if c == '>' {
			l.state = lexNormal
			l.token(tokString)
		}
		return nil
	case lexLT:
		if c == '<' {
			l.state = lexNormal
			return l.open(tokOpenDict)
		}
		l.state = lexHex
		return l.feed(c)
	case lexGT:
		l.state = lexNormal
		if c == '>' {
			return l.close(tokCloseDict)
		}
	}
	if isSpace(c) || isDelim(c) {
		l.endWord()
	}
	switch c {
	case '%':
		l.state = lexComment
	case '(':
		l.state, l.parens = lexString, 1
	case '<':
		l.state = lexLT
	case '>':
		l.state = lexGT
	case '[':
		return l.open(tokOpenArray)
	case ']':
		return l.close(tokCloseArray)
	case '/':
		l.inWord, l.name, l.n = true, true, 0
	case '{', '}', ')':
	default:
		if !isSpace(c) {
			if !l.inWord {
				l.inWord, l.name, l.n = true, false, 0
			}
			if l.n < len(l.word) {
				l.word[l.n] = c
			}
			l.n++
		}
	}
	return nil
}

func (l *lexer) open(kind tokKind) error {
	l.depth++
	if l.depth > l.maxDepth {
		return tooComplex("the PDF's objects are nested more than %s deep", thousands(l.maxDepth))
	}
	l.token(kind)
	return nil
}

func (l *lexer) close(kind tokKind) error {
	if l.depth > 0 {
		l.depth--
	}
	l.token(kind)
	return nil
}

func (l *lexer) endWord() {
	if !l.inWord {
		return
	}
	l.inWord = false
	if l.name {
		l.token(tokName)
	} else {
		l.token(tokWord)
	}
}

func (l *lexer) token(kind tokKind) {
	if l.emit == nil {
		return
	}
	var word []byte
	if kind == tokName || kind == tokWord {
		word = l.word[:min(l.n, len(l.word))]
	}
	l.emit(kind, word, l.depth)
}

// thousands writes n with commas, as the refusals do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// megabytes writes a byte count in whole megabytes (MiB, as the settings
// are given).
func megabytes(n int64) string { return thousands(int(n>>20)) + " MB" }
