package layout

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/chromium"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/render/phantom/pdfw"
	"github.com/platen/platen/render/phantom/style"
)

// The tests here print the same HTML with real Chromium and with phantom
// and compare the words' positions from pdftotext -bbox. One Chromium is
// ltShared by the test binary (it takes about a second to start).

var (
	ltCrOnce   sync.Once
	ltCrEngine *chromium.Engine
	ltCrErr    error

	ltShOnce sync.Once
	ltShMu   sync.Mutex // guards the ltShared shaper
	ltShared *fonts.Shaper
	ltShErr  error
)

func ltGeometry(manifest string) render.Geometry {
	if manifest == "" {
		manifest = `{"pageSize":"A4"}`
	}
	m, err := render.ParseManifest([]byte(manifest), "m")
	if err != nil {
		panic(err)
	}
	return m.Geometry()
}

// ltChromiumPDF prints markup as production does.
func ltChromiumPDF(t testing.TB, markup string, g render.Geometry) []byte {
	t.Helper()
	ltCrOnce.Do(func() {
		ltCrEngine, ltCrErr = chromium.New(chromium.DefaultConfig())
		if ltCrErr == nil {
			ltCrErr = ltCrEngine.Start()
		}
	})
	if ltCrErr != nil {
		t.Fatalf("chromium: %v", ltCrErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pdf, err := ltCrEngine.Render(ctx, render.Job{HTML: render.Document(markup, g, ""), Geometry: g})
	if err != nil {
		t.Fatalf("chromium render: %v", err)
	}
	return pdf
}

func ltShaper(t testing.TB) *fonts.Shaper {
	ltShOnce.Do(func() {
		lib, err := fonts.Default()
		if err != nil {
			ltShErr = err
			return
		}
		ltShared = lib.NewShaper()
	})
	if ltShErr != nil {
		t.Fatalf("fonts: %v", ltShErr)
	}
	return ltShared
}

// ltLayoutDoc lays markup out as the engine does.
func ltLayoutDoc(t testing.TB, markup string, g render.Geometry, opt Options) (*html.Node, *style.Result, error, func() ([]byte, error)) {
	t.Helper()
	sh := ltShaper(t)
	doc, err := html.Parse(strings.NewReader(render.Document(markup, g, "")))
	if err != nil {
		t.Fatal(err)
	}
	st, err := style.Compute(doc, style.Options{
		PageWidth: g.SheetWidthMM() * 96 / 25.4, PageHeight: g.SheetHeightMM() * 96 / 25.4,
		FontMetrics: func(families []string, weight int, fs style.FontStyle, size float64) (float64, float64) {
			m := sh.Metrics(fonts.Query{Families: families, Weight: weight, Style: fs, Stretch: 100}, size)
			return m.XHeight, m.ZeroWidth
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return doc, st, nil, func() ([]byte, error) {
		ltShMu.Lock()
		defer ltShMu.Unlock()
		d, err := Layout(context.Background(), doc, st, sh, opt)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := pdfw.Write(&buf, d, pdfw.Options{}); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
}

// ltPhantomPDF prints markup with phantom.
func ltPhantomPDF(t testing.TB, markup string, g render.Geometry) []byte {
	t.Helper()
	_, _, _, run := ltLayoutDoc(t, markup, g, Options{})
	pdf, err := run()
	if err != nil {
		t.Fatalf("phantom: %v", err)
	}
	return pdf
}

// ltWord is one ltWord box of pdftotext -bbox, in points.
type ltWord struct {
	page                   int
	xMin, yMin, xMax, yMax float64
	text                   string
}

var ltWordRE = regexp.MustCompile(`<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>`)

func ltWords(t testing.TB, pdf []byte) (ws []ltWord, pages []string) {
	t.Helper()
	cmd := exec.Command("pdftotext", "-bbox", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pg := -1
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "<page ") {
			pg++
			pages = append(pages, strings.TrimSpace(line))
			continue
		}
		m := ltWordRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		w := ltWord{page: pg, text: html.UnescapeString(m[5])}
		w.xMin, _ = strconv.ParseFloat(m[1], 64)
		w.yMin, _ = strconv.ParseFloat(m[2], 64)
		w.xMax, _ = strconv.ParseFloat(m[3], 64)
		w.yMax, _ = strconv.ParseFloat(m[4], 64)
		ws = append(ws, w)
	}
	return ws, pages
}

// ltComparison is how phantom's words sit against Chromium's.
type ltComparison struct {
	matched, total int
	median, worst  float64
	within2        float64
	pagesA, pagesB []string
	worstWord      string
	report         []string
	missing, extra int
}

// ltCompare matches words in order by text (a longest common
// subsequence) and measures the position difference of each matched pair
// (the larger of the left edges' and the vertical centres' difference).
func ltCompare(a, b []ltWord) ltComparison {
	var c ltComparison
	c.total = len(a)
	n, m := len(a), len(b)
	dp := make([][]int32, n+1)
	for i := range dp {
		dp[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i].text == b[j].text {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var diffs []float64
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i].text == b[j].text:
			dx := math.Abs(a[i].xMin - b[j].xMin)
			dy := math.Abs((a[i].yMin+a[i].yMax)/2 - (b[j].yMin+b[j].yMax)/2)
			if a[i].page != b[j].page {
				dy = 1000
			}
			d := math.Max(dx, dy)
			diffs = append(diffs, d)
			c.report = append(c.report, fmt.Sprintf("%-20q p%d (%7.2f,%7.2f) vs p%d (%7.2f,%7.2f)  dx %+6.2f dy %+6.2f", a[i].text, a[i].page, a[i].xMin, a[i].yMin, b[j].page, b[j].xMin, b[j].yMin,
				b[j].xMin-a[i].xMin, (b[j].yMin+b[j].yMax)/2-(a[i].yMin+a[i].yMax)/2))
			if d > c.worst {
				c.worst, c.worstWord = d, a[i].text
			}
			i++
			j++
		case dp[i+1][j] >= dp[i][j+1]:
			c.report = append(c.report, fmt.Sprintf("%-20q only in chromium p%d (%7.2f,%7.2f)", a[i].text, a[i].page, a[i].xMin, a[i].yMin))
			c.missing++
			i++
		default:
			c.report = append(c.report, fmt.Sprintf("%-20q only in phantom p%d (%7.2f,%7.2f)", b[j].text, b[j].page, b[j].xMin, b[j].yMin))
			c.extra++
			j++
		}
	}
	for ; i < n; i++ {
		c.report = append(c.report, fmt.Sprintf("%-20q only in chromium p%d (%7.2f,%7.2f)", a[i].text, a[i].page, a[i].xMin, a[i].yMin))
		c.missing++
	}
	for ; j < m; j++ {
		c.report = append(c.report, fmt.Sprintf("%-20q only in phantom p%d (%7.2f,%7.2f)", b[j].text, b[j].page, b[j].xMin, b[j].yMin))
		c.extra++
	}
	c.matched = len(diffs)
	if len(diffs) > 0 {
		sort.Float64s(diffs)
		c.median = diffs[len(diffs)/2]
		k := 0
		for _, d := range diffs {
			if d <= 2 {
				k++
			}
		}
		c.within2 = float64(k) / float64(len(diffs))
	}
	return c
}

// ltCompareHTML prints markup with both engines and compares their words.
func ltCompareHTML(t testing.TB, markup, manifest string) ltComparison {
	t.Helper()
	g := ltGeometry(manifest)
	a, pa := ltWords(t, ltChromiumPDF(t, markup, g))
	b, pb := ltWords(t, ltPhantomPDF(t, markup, g))
	c := ltCompare(a, b)
	c.pagesA, c.pagesB = pa, pb
	return c
}

// ltExpectClose fails when phantom's words are not where Chromium puts
// them: every ltWord matched, the same pages, median within 0.5 pt and the
// worst within tol points.
func ltExpectClose(t *testing.T, markup string, tol float64) {
	t.Helper()
	c := ltCompareHTML(t, markup, "")
	bad := c.missing > 0 || c.extra > 0 || c.median > 0.5 || c.worst > tol || len(c.pagesA) != len(c.pagesB)
	for i := range c.pagesA {
		if i < len(c.pagesB) && c.pagesA[i] != c.pagesB[i] {
			bad = true
		}
	}
	if bad || testing.Verbose() {
		t.Logf("chromium pages %v, phantom pages %v", c.pagesA, c.pagesB)
		t.Logf("words %d matched %d (missing %d extra %d) median %.3f worst %.3f (%q)", c.total, c.matched, c.missing, c.extra, c.median, c.worst, c.worstWord)
		for _, r := range c.report {
			t.Log(r)
		}
	}
	if bad {
		t.Fail()
	}
}

// TestCompareFiles compares the HTML files named by $PHANTOM_CMP (a
// development aid: it prints each ltWord's offset; it passes when unset).
func TestCompareFiles(t *testing.T) {
	files := os.Getenv("PHANTOM_CMP")
	if files == "" {
		t.Skip("PHANTOM_CMP names HTML files to compare")
	}
	for _, f := range strings.Fields(files) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := ltCompareHTML(t, string(raw), os.Getenv("PHANTOM_MANIFEST"))
		t.Logf("%s: chromium pages %v, phantom pages %v", filepath.Base(f), c.pagesA, c.pagesB)
		t.Logf("words %d matched %d (missing %d extra %d) median %.3f worst %.3f (%q) within2 %.3f", c.total, c.matched, c.missing, c.extra, c.median, c.worst, c.worstWord, c.within2)
		if os.Getenv("PHANTOM_QUIET") == "" {
			for _, r := range c.report {
				t.Log(r)
			}
		}
		if out := os.Getenv("PHANTOM_OUT"); out != "" {
			g := ltGeometry(os.Getenv("PHANTOM_MANIFEST"))
			os.WriteFile(filepath.Join(out, strings.TrimSuffix(filepath.Base(f), ".html")+".phantom.pdf"), ltPhantomPDF(t, string(raw), g), 0o644)
			os.WriteFile(filepath.Join(out, strings.TrimSuffix(filepath.Base(f), ".html")+".chromium.pdf"), ltChromiumPDF(t, string(raw), g), 0o644)
		}
	}
}
