package fonts

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/render/phantom/draw"
)

// This file is the oracle: it prints HTML with the production Chromium and
// reads back, from the PDF's content streams, every glyph Chromium drew:
// its font, size, glyph id and pen position in CSS px. Skia writes the
// glyphs of TrueType faces by glyph id (CIDToGIDMap Identity), so ids and
// positions compare exactly with what phantom computes.

var (
	chromeOnce sync.Once
	chrome     *chromium.Engine
	chromeErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if chrome != nil {
		chrome.Close()
	}
	os.Exit(code)
}

// printChromium prints body (the inside of <body>) on A4 with no margins.
func printChromium(t testing.TB, body string) []byte {
	t.Helper()
	chromeOnce.Do(func() {
		chrome, chromeErr = chromium.New(chromium.DefaultConfig())
		if chromeErr == nil {
			chromeErr = chrome.Start()
		}
	})
	if chromeErr != nil {
		t.Fatalf("chromium: %v", chromeErr)
	}
	return printWith(t, chrome, body)
}

// printWith prints body with engine e.
func printWith(t testing.TB, e *chromium.Engine, body string) []byte {
	t.Helper()
	m, err := render.ParseManifest([]byte(`{"pageSize":"A4","margins":{"top":"0mm","right":"0mm","bottom":"0mm","left":"0mm"}}`), "manifest")
	if err != nil {
		t.Fatal(err)
	}
	g := m.Geometry()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pdf, err := e.Render(ctx, render.Job{HTML: render.Document(body, g, ""), Geometry: g})
	if err != nil {
		t.Fatalf("chromium render: %v", err)
	}
	return pdf
}

// pdfGlyph is one glyph Chromium drew.
type pdfGlyph struct {
	Font string // BaseFont without the subset tag, or "Type3"
	Size float64
	GID  int // glyph id for TrueType faces; the code for Type3
	X, Y float64
	Skew float64 // the text matrix's shear: 0.25 (slanted right) for synthetic italic
}

type pdfObj struct {
	dict   string
	stream []byte
}

// parsePDFObjects reads the PDF's objects (Skia writes "N 0 obj ...
// endobj" with streams inline), inflating Flate streams.
func parsePDFObjects(pdf []byte) map[int]pdfObj {
	objs := make(map[int]pdfObj)
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte(" 0 obj"))
		if i < 0 {
			break
		}
		j := i
		for j > 0 && rest[j-1] >= '0' && rest[j-1] <= '9' {
			j--
		}
		n, _ := strconv.Atoi(string(rest[j:i]))
		body := rest[i+len(" 0 obj"):]
		o := pdfObj{}
		si := bytes.Index(body, []byte("stream"))
		ei := bytes.Index(body, []byte("endobj"))
		if ei < 0 {
			break
		}
		if si >= 0 && si < ei {
			o.dict = string(body[:si])
			data := body[si+len("stream"):]
			data = bytes.TrimPrefix(data, []byte("\r"))
			data = bytes.TrimPrefix(data, []byte("\n"))
			end := bytes.Index(data, []byte("endstream"))
			if end < 0 {
				break
			}
			raw := data[:end]
			if strings.Contains(o.dict, "/FlateDecode") {
				if r, err := zlib.NewReader(bytes.NewReader(raw)); err == nil {
					raw, _ = io.ReadAll(r)
				}
			}
			o.stream = raw
			rest = data[end:]
			if k := bytes.Index(rest, []byte("endobj")); k >= 0 {
				rest = rest[k:]
			}
		} else {
			o.dict = string(body[:ei])
			rest = body[ei:]
		}
		objs[n] = o
	}
	return objs
}

var (
	fontResRE  = regexp.MustCompile(`/(F\d+) (\d+) 0 R`)
	contentsRE = regexp.MustCompile(`/Contents (\d+) 0 R`)
	baseFontRE = regexp.MustCompile(`/BaseFont /(?:[A-Z]{6}\+)?([^\s/>]+)`)
	descRE     = regexp.MustCompile(`/DescendantFonts \[(\d+) 0 R\]`)
	dwRE       = regexp.MustCompile(`/DW ([\d.]+)`)
	wRE        = regexp.MustCompile(`(?s)/W \[(.*?)\]\s*\n?/DW`)
	widthsRE   = regexp.MustCompile(`(?s)/Widths \[(.*?)\]`)
	firstRE    = regexp.MustCompile(`/FirstChar (\d+)`)
	fmatrixRE  = regexp.MustCompile(`/FontMatrix \[([-\d.]+)`)
)

type pdfFont struct {
	name   string
	type3  bool
	widths map[int]float64 // in text space units per 1 of font size
	dw     float64
}

func loadPDFFont(objs map[int]pdfObj, n int) *pdfFont {
	d := objs[n].dict
	f := &pdfFont{widths: make(map[int]float64)}
	if strings.Contains(d, "/Type3") {
		f.name, f.type3 = "Type3", true
		scale := 0.001
		if m := fmatrixRE.FindStringSubmatch(d); m != nil {
			scale, _ = strconv.ParseFloat(m[1], 64)
		}
		first := 0
		if m := firstRE.FindStringSubmatch(d); m != nil {
			first, _ = strconv.Atoi(m[1])
		}
		if m := widthsRE.FindStringSubmatch(d); m != nil {
			for i, w := range strings.Fields(m[1]) {
				v, _ := strconv.ParseFloat(w, 64)
				f.widths[first+i] = v * scale
			}
		}
		return f
	}
	if m := baseFontRE.FindStringSubmatch(d); m != nil {
		f.name = m[1]
	}
	if m := descRE.FindStringSubmatch(d); m != nil {
		n2, _ := strconv.Atoi(m[1])
		dd := objs[n2].dict
		f.dw = 1
		if m := dwRE.FindStringSubmatch(dd); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			f.dw = v / 1000
		}
		if m := wRE.FindStringSubmatch(dd); m != nil {
			parseCIDWidths(m[1], f.widths)
		}
	}
	return f
}

// parseCIDWidths reads a /W array: "c [w1 w2 ...]" and "c1 c2 w" forms.
func parseCIDWidths(s string, out map[int]float64) {
	s = strings.NewReplacer("[", " [ ", "]", " ] ").Replace(s)
	tok := strings.Fields(s)
	for i := 0; i < len(tok); {
		c, err := strconv.Atoi(tok[i])
		if err != nil {
			i++
			continue
		}
		if i+1 < len(tok) && tok[i+1] == "[" {
			j := i + 2
			for ; j < len(tok) && tok[j] != "]"; j++ {
				v, _ := strconv.ParseFloat(tok[j], 64)
				out[c] = v / 1000
				c++
			}
			i = j + 1
			continue
		}
		if i+2 < len(tok) {
			c2, _ := strconv.Atoi(tok[i+1])
			v, _ := strconv.ParseFloat(tok[i+2], 64)
			for k := c; k <= c2; k++ {
				out[k] = v / 1000
			}
		}
		i += 3
	}
}

type mat [6]float64

func (a mat) mul(b mat) mat { // a then b
	return mat{
		a[0]*b[0] + a[1]*b[2], a[0]*b[1] + a[1]*b[3],
		a[2]*b[0] + a[3]*b[2], a[2]*b[1] + a[3]*b[3],
		a[4]*b[0] + a[5]*b[2] + b[4], a[4]*b[1] + a[5]*b[3] + b[5],
	}
}

// pdfGlyphs returns the glyphs drawn on the first page, in drawing order,
// positioned in CSS px from the page's top-left corner.
func pdfGlyphs(t testing.TB, pdf []byte) []pdfGlyph {
	t.Helper()
	objs := parsePDFObjects(pdf)
	var page string
	for _, o := range objs {
		if strings.Contains(o.dict, "/Type /Page\n") || strings.Contains(o.dict, "/Type /Page\r") || strings.Contains(o.dict, "/Type /Page/") {
			page = o.dict
			break
		}
	}
	if page == "" {
		t.Fatal("no page in the PDF")
	}
	fonts := make(map[string]*pdfFont)
	for _, m := range fontResRE.FindAllStringSubmatch(page, -1) {
		n, _ := strconv.Atoi(m[2])
		fonts[m[1]] = loadPDFFont(objs, n)
	}
	m := contentsRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no page contents")
	}
	n, _ := strconv.Atoi(m[1])
	// Page height in pt, for turning PDF user space into CSS px from the top.
	const pageH = 841.91998
	return runContent(objs[n].stream, fonts, pageH)
}

func runContent(content []byte, fonts map[string]*pdfFont, pageH float64) []pdfGlyph {
	var out []pdfGlyph
	ctm := mat{1, 0, 0, 1, 0, 0}
	var stack []mat
	var tm, tlm mat
	var font *pdfFont
	var size float64
	var args []string
	for _, tok := range tokenizePDF(content) {
		if len(tok) > 0 && (tok[0] == '<' || tok[0] == '/' || tok[0] == '-' || tok[0] == '.' || (tok[0] >= '0' && tok[0] <= '9')) {
			args = append(args, tok)
			continue
		}
		num := func(i int) float64 {
			v, _ := strconv.ParseFloat(args[len(args)-i], 64)
			return v
		}
		switch tok {
		case "q":
			stack = append(stack, ctm)
		case "Q":
			if len(stack) > 0 {
				ctm, stack = stack[len(stack)-1], stack[:len(stack)-1]
			}
		case "cm":
			if len(args) >= 6 {
				ctm = mat{num(6), num(5), num(4), num(3), num(2), num(1)}.mul(ctm)
			}
		case "BT":
			tm, tlm = mat{1, 0, 0, 1, 0, 0}, mat{1, 0, 0, 1, 0, 0}
		case "Tf":
			if len(args) >= 2 {
				font = fonts[strings.TrimPrefix(args[len(args)-2], "/")]
				size = num(1)
			}
		case "Tm":
			if len(args) >= 6 {
				tm = mat{num(6), num(5), num(4), num(3), num(2), num(1)}
				tlm = tm
			}
		case "Td":
			if len(args) >= 2 {
				tlm = mat{1, 0, 0, 1, num(2), num(1)}.mul(tlm)
				tm = tlm
			}
		case "Tj":
			if len(args) >= 1 && font != nil {
				hex := strings.Trim(args[len(args)-1], "<>")
				step := 4
				if font.type3 {
					step = 2
				}
				for i := 0; i+step <= len(hex); i += step {
					c, _ := strconv.ParseUint(hex[i:i+step], 16, 32)
					trm := tm.mul(ctm)
					// User space is pt with y up; CSS px from the top.
					x, y := trm[4]/0.75, (pageH-trm[5])/0.75
					skew := 0.0
					if tm[3] != 0 {
						skew = tm[2] / -tm[3]
					}
					out = append(out, pdfGlyph{Font: font.name, Size: size, GID: int(c), X: x, Y: y, Skew: skew})
					w, ok := font.widths[int(c)]
					if !ok {
						w = font.dw
					}
					tm = mat{1, 0, 0, 1, w * size, 0}.mul(tm)
				}
			}
		}
		args = args[:0]
	}
	return out
}

// tokenizePDF splits a content stream into operands and operators.
func tokenizePDF(b []byte) []string {
	var out []string
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			i++
		case c == '<':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return out
			}
			out = append(out, string(b[i:i+j+1]))
			i += j + 1
		case c == '(':
			depth, j := 0, i
			for ; j < len(b); j++ {
				if b[j] == '\\' {
					j++
					continue
				}
				if b[j] == '(' {
					depth++
				} else if b[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			out = append(out, "<>")
			i = j + 1
		case c == '[' || c == ']':
			i++
		default:
			j := i
			for j < len(b) && !strings.ContainsRune(" \n\r\t<([]", rune(b[j])) {
				if j > i && b[j] == '/' {
					break
				}
				j++
			}
			if j == i {
				j++
			}
			out = append(out, string(b[i:j]))
			i = j
		}
	}
	return out
}

func (g pdfGlyph) String() string {
	return fmt.Sprintf("%s@%g gid %d (%.4f, %.4f)", g.Font, g.Size, g.GID, g.X, g.Y)
}

// lineDiff compares the runs phantom shaped for a line with the glyphs
// Chromium drew for it (the first len(drawn) of them: Chromium culls what
// the clip hides). It reports the first difference in face, glyph id,
// synthesis or position (beyond tol px), and the worst position
// difference. Skia prints CFF faces, and TrueType faces it emboldens, as
// Type 3 fonts, whose codes are not glyph ids.
func lineDiff(runs []Run, drawn []pdfGlyph, tol float64) (diff string, worst float64, n int) {
	x := 0.0
	for _, r := range runs {
		want := r.Font.PostScriptName
		if r.FakeBold > 0 || isCFF(r.Font) {
			want = "Type3"
		}
		for _, g := range r.Glyphs {
			if n == len(drawn) {
				return "", worst, n
			}
			cg := drawn[n]
			n++
			d := math.Abs(cg.X - x)
			worst = math.Max(worst, d)
			italic := cg.Skew > 0.2
			switch {
			case cg.Font != want:
				return fmt.Sprintf("glyph %d (%q): phantom %s (%s), Chromium %v", n-1, g.Text, want, r.Font.Key, cg), worst, n
			case want != "Type3" && int(g.ID) != cg.GID:
				return fmt.Sprintf("glyph %d (%q): phantom %s gid %d, Chromium %v", n-1, g.Text, want, g.ID, cg), worst, n
			case italic != r.FakeItalic:
				return fmt.Sprintf("glyph %d (%q): phantom fake italic %v, Chromium skew %.2f", n-1, g.Text, r.FakeItalic, cg.Skew), worst, n
			case math.Abs(cg.Size-r.Size) > 1e-4:
				return fmt.Sprintf("glyph %d (%q): phantom size %g, Chromium %g", n-1, g.Text, r.Size, cg.Size), worst, n
			case d > tol:
				return fmt.Sprintf("glyph %d (%q): phantom x %.4f, Chromium %.4f", n-1, g.Text, x, cg.X), worst, n
			}
			x += g.Advance
		}
	}
	if n < len(drawn) {
		return fmt.Sprintf("Chromium drew %d glyphs, phantom %d", len(drawn), n), worst, n
	}
	return "", worst, n
}

// isCFF reports whether a draw.Font holds CFF outlines.
func isCFF(f *draw.Font) bool {
	return len(f.Data) >= 4 && string(f.Data[:4]) == "OTTO"
}
