package fonts

import (
	"os"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/internal/fonttest"
	"github.com/platen/platen/render/phantom/style"
)

// FuzzShape shapes arbitrary text (invalid UTF-8, controls, marks, any
// script) and checks the runs still cover it in order.
func FuzzShape(f *testing.F) {
	for _, s := range []string{"", "a", "\xff\xfe", "e\u0301\u0301\u0301", "\t\n\r\u200d\ufe0f", "مرحبا 123 abc", "\u3000\u00a0\u2011", strings.Repeat("ﷺ", 40), "x ₿ ✓ ✔ λ"} {
		f.Add(s, true, false)
	}
	l, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	sh := l.NewShaper()
	f.Fuzz(func(t *testing.T, text string, rtl, smallCaps bool) {
		if len(text) > 4096 {
			return
		}
		q := Query{Families: []string{"Arial", "Nope", "serif"}, Weight: 700, Style: style.FontItalic}
		runs := sh.Shape(q, 13.33, text, ShapeOptions{RTL: rtl, SmallCaps: smallCaps})
		pos := 0
		for _, r := range runs {
			if r.Start != pos || r.End < r.Start || r.End > len(text) || r.Font == nil {
				t.Fatalf("run %d-%d after %d in %q", r.Start, r.End, pos, text)
			}
			pos = r.End
		}
		if pos != len(text) {
			t.Fatalf("runs end at %d of %d in %q", pos, len(text), text)
		}
	})
}

// FuzzParseXML feeds broken configuration files to the parser.
func FuzzParseXML(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><alias binding="same"><family>Arial</family><prefer><family>Liberation Sans</family></prefer></alias><!-- x --></fontconfig>`))
	f.Add([]byte(`<fontconfig><match target="pattern"><test qual="any" name="family"><string>a&amp;b</string></test><edit name="family" mode="assign" binding="same"><string>c</string></edit></match>`))
	f.Add([]byte(`<a b='1' c="2"/><![CDATA[x]]><`))
	f.Fuzz(func(t *testing.T, b []byte) {
		root, err := parseXML(b)
		if err != nil || root == nil {
			t.Fatalf("parseXML: %v", err)
		}
		ld := confLoader{cfg: &fcConfig{}, seen: map[string]bool{}}
		for _, e := range root.kids {
			ld.element(e, "/nonexistent")
		}
		ld.cfg.substitute("Arial")
	})
}

// FuzzWebFace reads arbitrary bytes as a web font (cut, corrupted or
// wrapped fonts among the seeds): it is read or refused, never a panic or
// a runaway, and text shapes in it or around it.
func FuzzWebFace(f *testing.F) {
	ttf, err := os.ReadFile(testTTF)
	if err != nil {
		f.Fatal(err)
	}
	woff2 := fonttest.WOFF2(ttf)
	for _, b := range [][]byte{ttf[:4096], fonttest.WOFF(ttf)[:2048], woff2[:1024], []byte("wOF2"), []byte("OTTO\x00\x05")} {
		f.Add(b)
	}
	l, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<20 {
			return
		}
		ol, _ := l.WithWebFaces([]WebFace{{Family: "Web", Data: b, WeightMin: 400, WeightMax: 400, Ranges: [][2]rune{{0, 0xff}}}})
		runs := ol.NewShaper().Shape(Query{Families: []string{"Web", "serif"}, Weight: 700}, 12, "Invoice Ω", ShapeOptions{})
		if len(runs) == 0 || runs[len(runs)-1].End != len("Invoice Ω") {
			t.Fatalf("runs %v", runs)
		}
	})
}
