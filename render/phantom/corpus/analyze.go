package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Analysis is what poppler reads from one PDF: each page's size, words and
// gray render. Analyze makes it once per PDF; Compare reads two.
type Analysis struct {
	Pages []Page
}

// Page is one page of an Analysis.
type Page struct {
	// Width and Height are the page size in points, as pdftotext reads it.
	Width, Height float64
	// Words are the page's words in pdftotext's reading order.
	Words []Word
	// Gray is the page rendered at 72 dpi (one pixel a point); nil when the
	// analysis was made without pixels.
	Gray *image.Gray
}

// Word is one word box of pdftotext -bbox, in points from the page's
// top-left corner, y down.
type Word struct {
	Text                   string
	XMin, YMin, XMax, YMax float64
}

// Words counts the words of every page.
func (a *Analysis) Words() int {
	n := 0
	for _, p := range a.Pages {
		n += len(p.Words)
	}
	return n
}

// ErrPoppler is poppler failing on a PDF (or missing: CI installs poppler-utils).
var ErrPoppler = errors.New("poppler could not read the PDF")

// Analyze reads pdf with pdftotext -bbox and, when pixels is set, renders
// it with pdftoppm -r 72 -gray; the two run at the same time. Each runs
// once for the whole document.
func Analyze(ctx context.Context, pdf []byte, pixels bool) (*Analysis, error) {
	type grays struct {
		imgs []*image.Gray
		err  error
	}
	done := make(chan grays, 1)
	if pixels {
		go func() {
			imgs, err := render72(ctx, pdf)
			done <- grays{imgs, err}
		}()
	}
	a, err := words(ctx, pdf)
	if pixels {
		g := <-done
		if err == nil && g.err != nil {
			err = g.err
		}
		if err == nil {
			if len(g.imgs) != len(a.Pages) {
				return nil, fmt.Errorf("%w: pdftotext reads %d pages and pdftoppm renders %d", ErrPoppler, len(a.Pages), len(g.imgs))
			}
			for i := range a.Pages {
				a.Pages[i].Gray = g.imgs[i]
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

var (
	pageRE = regexp.MustCompile(`^\s*<page width="([0-9.]+)" height="([0-9.]+)">`)
	wordRE = regexp.MustCompile(`^\s*<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">(.*)</word>`)
)

// words runs pdftotext -bbox on pdf and parses its XHTML, one element a line.
func words(ctx context.Context, pdf []byte) (*Analysis, error) {
	cmd := exec.CommandContext(ctx, "pdftotext", "-bbox", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: pdftotext: %v: %s", ErrPoppler, err, strings.TrimSpace(stderr.String()))
	}
	a := &Analysis{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if m := wordRE.FindSubmatch(line); m != nil {
			if len(a.Pages) == 0 {
				return nil, fmt.Errorf("%w: pdftotext gave a word outside a page", ErrPoppler)
			}
			p := &a.Pages[len(a.Pages)-1]
			p.Words = append(p.Words, Word{Text: html.UnescapeString(string(m[5])),
				XMin: num(m[1]), YMin: num(m[2]), XMax: num(m[3]), YMax: num(m[4])})
			continue
		}
		if m := pageRE.FindSubmatch(line); m != nil {
			a.Pages = append(a.Pages, Page{Width: num(m[1]), Height: num(m[2])})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: pdftotext output: %v", ErrPoppler, err)
	}
	return a, nil
}

func num(b []byte) float64 {
	v, _ := strconv.ParseFloat(string(b), 64)
	return v
}

// render72 renders every page of pdf in gray at 72 dpi with pdftoppm, which
// writes one PGM file a page into a scratch folder.
func render72(ctx context.Context, pdf []byte) ([]*image.Gray, error) {
	dir, err := os.MkdirTemp("", "corpus-ppm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, "pdftoppm", "-r", "72", "-gray", "-", filepath.Join(dir, "p"))
	cmd.Stdin = bytes.NewReader(pdf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: pdftoppm: %v: %s", ErrPoppler, err, strings.TrimSpace(stderr.String()))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	// pdftoppm numbers pages p-1.pgm or p-01.pgm...: order by the number.
	type file struct {
		n    int
		name string
	}
	var files []file
	for _, e := range entries {
		s := strings.TrimSuffix(strings.TrimPrefix(e.Name(), "p-"), ".pgm")
		n, err := strconv.Atoi(s)
		if err != nil {
			continue
		}
		files = append(files, file{n, e.Name()})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].n < files[j].n })
	imgs := make([]*image.Gray, len(files))
	for i, f := range files {
		raw, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return nil, err
		}
		if imgs[i], err = parsePGM(raw); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrPoppler, f.name, err)
		}
	}
	return imgs, nil
}

// parsePGM reads a binary 8-bit PGM (P5), as pdftoppm -gray writes it.
func parsePGM(b []byte) (*image.Gray, error) {
	var fields [4]int
	pos := 0
	for i := 0; i < 4; i++ {
		for pos < len(b) && (b[pos] == ' ' || b[pos] == '\n' || b[pos] == '\r' || b[pos] == '\t') {
			pos++
		}
		start := pos
		for pos < len(b) && b[pos] > ' ' {
			pos++
		}
		tok := string(b[start:pos])
		if i == 0 {
			if tok != "P5" {
				return nil, fmt.Errorf("not a binary PGM")
			}
			continue
		}
		v, err := strconv.Atoi(tok)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("bad PGM header")
		}
		fields[i] = v
	}
	pos++ // the single white space after maxval
	w, h, maxval := fields[1], fields[2], fields[3]
	if maxval != 255 || w > 1<<15 || h > 1<<15 || pos+w*h > len(b) {
		return nil, fmt.Errorf("PGM of %dx%d (max %d) in %d bytes", w, h, maxval, len(b))
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	copy(img.Pix, b[pos:pos+w*h])
	return img, nil
}
