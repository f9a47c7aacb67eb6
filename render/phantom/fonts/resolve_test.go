package fonts

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/platen/platen/render/phantom/style"
)

// query returns the Query Blink would build for the case.
func (c lineCase) query() Query {
	q := Query{Families: splitFamilies(c.family), Weight: c.weight, Stretch: c.stretch}
	if c.italic {
		q.Style = style.FontItalic
	} else if c.oblique {
		q.Style = style.FontOblique
	}
	return q
}

// splitFamilies parses a CSS font-family value as style does: names
// unquoted, generic names lower-case.
func splitFamilies(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if len(f) >= 2 && (f[0] == '"' || f[0] == '\'') && f[len(f)-1] == f[0] {
			f = f[1 : len(f)-1]
		} else if _, ok := genericFamilies[strings.ToLower(f)]; ok {
			f = strings.ToLower(f)
		}
		out = append(out, f)
	}
	return out
}

// TestFamiliesMatchChromium prints one line per family list, weight and
// style, and checks that Chromium drew it in the face phantom resolves,
// with the same synthesis: a skewed text matrix for synthetic italic, and
// a Type 3 font (Skia draws emboldened TrueType glyphs as Type 3 outlines)
// for synthetic bold. CFF faces always print as Type 3.
func TestFamiliesMatchChromium(t *testing.T) {
	t.Parallel()
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var cases []lineCase
	add := func(fam string, weight int, st string) {
		cases = append(cases, lineCase{family: fam, size: 16, weight: weight, italic: st == "italic", oblique: st == "oblique", text: "Hamburgefonstiv"})
	}
	for _, fam := range []string{"Arial", "Helvetica", "Times", "Times New Roman", "Courier", "Courier New",
		"Georgia", "Verdana", "Tahoma", "Liberation Sans", "Liberation Serif", "Liberation Mono",
		"DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Nimbus Sans", "sans-serif", "serif", "monospace",
		"system-ui", "cursive", "fantasy", "Nope, Courier New", `"Times New Roman"`, `'DejaVu Sans', serif`,
		"Nope", "Latin Modern Roman", "Arial Narrow", "Liberation Sans Narrow", "DejaVu Sans Condensed",
		"DejaVu Sans Light", "Sans", "Monospace", "Symbol", "Calibri", "Nimbus Roman", "Z003", "URW Gothic"} {
		add(fam, 400, "normal")
	}
	for _, fam := range []string{"Arial", "DejaVu Sans", "DejaVu Serif", "Latin Modern Mono", "OpenSymbol", "Z003", "Nimbus Sans"} {
		for w := 100; w <= 900; w += 100 {
			add(fam, w, "normal")
		}
		add(fam, 400, "italic")
		add(fam, 400, "oblique")
		add(fam, 700, "italic")
	}
	for _, stretch := range []float64{50, 75, 87.5, 112.5, 150} {
		for _, fam := range []string{"DejaVu Sans", "DejaVu Serif", "Liberation Sans", "Nimbus Sans"} {
			cases = append(cases, lineCase{family: fam, size: 16, weight: 400, stretch: stretch, text: "Hamburgefonstiv"})
		}
	}
	lines := printLines(t, cases)
	sh := l.NewShaper()
	bad := 0
	for i, c := range cases {
		runs := sh.Shape(c.query(), c.size, c.text, ShapeOptions{})
		if diff, _, _ := lineDiff(runs, lines[i], 0.001); diff != "" {
			bad++
			t.Errorf("%s %d italic=%v oblique=%v stretch=%g: %s", c.family, c.weight, c.italic, c.oblique, c.stretch, diff)
		}
	}
	t.Logf("%d family lists and styles checked, %d differ", len(cases), bad)
}

// TestMatchAgreesWithFontconfig checks fontconfig's answer for the
// patterns Skia builds (fc-match) against fcBest, by family and style.
func TestMatchAgreesWithFontconfig(t *testing.T) {
	t.Parallel()
	l, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	type job struct {
		name   string
		weight int
		slant  int
	}
	var jobs []job
	for _, name := range []string{"Arial", "Helvetica", "Times", "Courier New", "Liberation Sans", "DejaVu Sans",
		"DejaVu Serif", "DejaVu Sans Mono", "Nimbus Sans", "Nimbus Mono PS", "Latin Modern Roman", "Latin Modern Mono",
		"sans", "serif", "monospace", "Nope", "URW Gothic", "Z003", "Symbol", "DejaVu Sans Condensed"} {
		for _, w := range []int{100, 300, 400, 500, 600, 700, 900} {
			for _, sl := range []int{0, 100, 110} {
				if sl == 110 && w != 400 {
					continue
				}
				jobs = append(jobs, job{name, w, sl})
			}
		}
	}
	results := make([]string, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			pat := fmt.Sprintf("%s:weight=%g:slant=%d:width=100", strings.ReplaceAll(j.name, "-", `\-`), skWeightToFc(j.weight), j.slant)
			out, err := exec.Command("fc-match", "-f", "%{family[0]}|%{style[0]}", pat).Output()
			if err != nil {
				results[i] = "error: " + err.Error()
				return
			}
			results[i] = string(out)
		}()
	}
	wg.Wait()
	bad := 0
	for i, j := range jobs {
		q := Query{Weight: j.weight, Stretch: 100}
		switch j.slant {
		case 100:
			q.Style = style.FontItalic
		case 110:
			q.Style = style.FontOblique
		}
		fc := l.fcBest(l.pattern(j.name, q), nil)
		got := fc.info.families[0] + "|" + fc.styleName()
		if got != results[i] {
			bad++
			t.Errorf("%s weight %d slant %d: phantom %s (%s), fc-match %s", j.name, j.weight, j.slant, got, fc.path, results[i])
		}
	}
	t.Logf("%d patterns checked against fc-match, %d differ", len(jobs), bad)
}
