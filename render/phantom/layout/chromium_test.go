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
	"github.com/platen/platen/render/phantom/images"
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
func ltLayoutDoc(t testing.TB, markup string, g render.Geometry, opt Options) (*html.Node, *style.Result, func() ([]byte, error), error) {
	t.Helper()
	sh := ltShaper(t)
	doc, err := html.Parse(strings.NewReader(render.Document(markup, g, "")))
	if err != nil {
		t.Fatal(err)
	}
	styleOpt := func(vw, vh float64) style.Options {
		return style.Options{
			PageWidth: g.SheetWidthMM() * 96 / 25.4, PageHeight: g.SheetHeightMM() * 96 / 25.4,
			ViewportWidth: vw, ViewportHeight: vh,
			LocalFont: sh.HasLocal,
			FontMetrics: func(families []string, weight int, fs style.FontStyle, size float64) (float64, float64) {
				m := sh.Metrics(fonts.Query{Families: families, Weight: weight, Style: fs, Stretch: 100}, size)
				return m.XHeight, m.ZeroWidth
			},
		}
	}
	st, err := style.Compute(doc, styleOpt(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	shared := true
	if wfs := st.WebFonts(); len(wfs) > 0 {
		// The document's web fonts, loaded as the engine loads them.
		lib, err := fonts.Default()
		if err != nil {
			t.Fatal(err)
		}
		var faces []fonts.WebFace
		for _, w := range wfs {
			if _, data, err := images.DecodeDataURI(w.Data); err == nil {
				faces = append(faces, fonts.WebFace{Family: w.Family, Data: data, WeightMin: w.WeightMin, WeightMax: w.WeightMax, Style: w.Style, Ranges: w.Ranges})
			}
		}
		ol, bad := lib.WithWebFaces(faces)
		if len(bad) > 0 {
			t.Logf("web fonts phantom cannot read: %v", bad)
		}
		sh, shared = ol.NewShaper(), false
		if st, err = style.Compute(doc, styleOpt(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	opt.Restyle = func(w, h float64) (*style.Result, error) { return style.Compute(doc, styleOpt(w, h)) }
	return doc, st, func() ([]byte, error) {
		if shared {
			ltShMu.Lock()
			defer ltShMu.Unlock()
		}
		d, err := Layout(context.Background(), doc, st, sh, opt)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := pdfw.Write(&buf, d, pdfw.Options{}); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}, nil
}

// ltPhantomPDF prints markup with phantom.
func ltPhantomPDF(t testing.TB, markup string, g render.Geometry) []byte {
	t.Helper()
	_, _, run, _ := ltLayoutDoc(t, markup, g, Options{})
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
	bad := c.missing > 0 || c.extra > 0 || c.median > 0.5 || c.worst > tol || !ltSamePages(c.pagesA, c.pagesB)
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

// lorem is running text long enough to wrap a few times.
const lorem = `The quick brown fox jumps over the lazy dog. Invoice totals are due within thirty days;
late payment incurs interest at 8% above base rate. Pack my box with five dozen liquor jugs — Avenue, Tower, Yacht.`

// TestMatchesChromium prints small documents, one feature each, with both
// engines: every word must be where Chromium puts it (median within
// 0.5 pt, the worst within the case's tolerance), on the same pages.
func TestMatchesChromium(t *testing.T) {
	cases := []struct {
		name, html string
		tol        float64
	}{
		{"paragraphs in fonts and sizes", `<style>body{margin:20px}</style>
<p style="font:16px Arial">` + lorem + `</p><p style="font:13px 'Times New Roman'">` + lorem + `</p>
<p style="font:11pt Georgia;line-height:1.5">` + lorem + `</p><p style="font:12px 'Courier New'">` + lorem + `</p>
<p style="font:bold 15px Verdana">` + lorem + `</p><p style="font:italic 14px Helvetica">` + lorem + `</p>`, 0.1},
		{"margins collapsing", `<div style="margin:20px 0"><div style="margin-top:30px"><p style="margin:10px 0">First</p></div></div>
<div style="margin-bottom:25px">A</div><div style="margin-top:-10px">B</div><div></div><div style="margin:40px 0"></div><div>C</div>
<div style="border-top:1px solid;margin-top:15px"><p>D with border</p></div><div style="padding-bottom:1px"><p style="margin-bottom:50px">E</p></div><p>F</p>`, 0.1},
		{"nested boxes", `<div style="padding:10px;border:3px solid;margin:5px 30px"><div style="width:50%;padding:2mm;border:1px dashed;margin:0 auto">centred ` + lorem + `</div>
<div style="box-sizing:border-box;width:300px;padding:20px;border:5px solid;min-height:80px">box-sizing</div><div style="max-width:200px">` + lorem + `</div></div>`, 0.1},
		{"lists", `<ul><li>disc</li><li>two<ul><li>circle</li></ul></li></ul><ol start="7"><li>seven</li><li value="2">two</li><li>three</li></ol>
<ol reversed><li>a</li><li>b</li><li>c</li></ol><ol style="list-style-type:upper-roman"><li>i</li><li>ii</li></ol>
<ul style="list-style-position:inside"><li>inside marker</li></ul><ol style="list-style:lower-alpha inside"><li>alpha</li></ol><ul style="list-style:none"><li>none</li></ul>`, 0.1},
		{"inline-blocks", `<div><span style="display:inline-block;width:120px;border:1px solid;padding:4px">one two three four five</span>
<span style="display:inline-block;vertical-align:top">top<br>two lines</span> <span style="display:inline-block;vertical-align:middle;height:40px;background:#eee">mid</span>
<span style="display:inline-block">shrink to fit</span> text after</div>`, 0.1},
		{"line-height and vertical-align", `<p style="line-height:2">` + lorem + `</p><p style="line-height:14px;font-size:20px">` + lorem + `</p>
<p style="line-height:150%">x<sup>2</sup> H<sub>2</sub>O <span style="vertical-align:text-top;font-size:8px">tt</span>
<span style="vertical-align:text-bottom;font-size:8px">tb</span> <span style="vertical-align:-4px">len</span> <span style="font-size:30px">Big</span>
<span style="vertical-align:top">top</span> <span style="vertical-align:bottom">bottom</span></p>`, 0.1},
		{"text-align and justify", `<div style="width:300px"><p style="text-align:justify">` + lorem + lorem + `</p><p style="text-align:right">` + lorem + `</p>
<p style="text-align:center">` + lorem + `</p><p style="text-indent:30px">` + lorem + `</p>
<p style="text-align:justify;text-align-last:right">` + lorem + `</p></div>`, 0.1},
		{"white space and breaking", `<div style="width:200px"><pre>a  b	c
  indented</pre><p style="white-space:pre-wrap">kept    spaces   and a long line that wraps</p>
<p style="white-space:nowrap">no wrap here even though it is long</p><p style="white-space:pre-line">lines
  kept but   spaces not</p><p>https://example.com/a/very/long/url/INV-2026-0142.pdf and 2026-01-02</p>
<p style="overflow-wrap:anywhere">Supercalifragilisticexpialidocious</p></div>`, 0.1},
		{"spacing and transform", `<p style="letter-spacing:2px">Letter spacing ` + lorem + `</p><p style="word-spacing:5px">Word spacing ` + lorem + `</p>
<p style="text-transform:uppercase">upper case</p><p style="text-transform:capitalize">capitalize each word</p>`, 0.1},
		{"absolute positioning", `<div style="position:relative;height:300px;border:1px solid">flow
<div style="position:absolute;left:50px;top:40px">at 50 40</div><div style="position:absolute;right:10px;bottom:10px">bottom right</div>
<div style="position:absolute;left:20%;top:50%;width:100px">percent box wraps here</div><div style="position:absolute;left:0;right:0;top:100px;margin:auto;width:80px">centred</div></div>
<p>static <span style="position:absolute">static pos</span></p><div style="position:relative;left:30px;top:5px">relative</div>`, 0.1},
		{"page breaks", `<style>p{margin:0 0 10px}</style>` + strings.Repeat("<p>"+lorem+"</p>", 20) + `<h2 style="break-before:page">After a break</h2>` +
			strings.Repeat("<p>"+lorem+"</p>", 25) + `<div style="break-inside:avoid;border:1px solid">` + strings.Repeat(lorem, 6) + `</div>`, 0.1},
		{"right to left", `<p dir="rtl">שלום עולם, זוהי פסקה בעברית עם מספר 42 ומילה English בתוכה.</p><p dir="rtl" style="font-family:'DejaVu Sans'">مرحبا بالعالم، هذه فقرة عربية.</p>`, 0.1},
		{"right to left lists", `<ul dir="rtl"><li>פריט ראשון</li><li>abc</li></ul><ol dir="rtl"><li>פריט ראשון</li><li>שני</li></ol>
<ol dir="rtl" style="list-style-type:lower-roman"><li>אחד</li><li>שניים</li></ol><ol dir="rtl" start="9"><li>תשע</li><li>עשר</li></ol>
<ol dir="rtl" style="list-style-position:inside"><li>בפנים</li></ol><ol style="direction:rtl;font-family:'DejaVu Sans'"><li>مرحبا</li><li>عالم</li></ol>
<ul style="list-style:none"><li dir="rtl">li rtl שלום</li></ul><ul style="list-style:none;text-align:end"><li dir="rtl">end rtl</li></ul>
<ul dir="rtl" style="text-align:start"><li dir="ltr">start ltr</li></ul>`, 0.1},
		{"letter-spacing in cursive scripts", `<div style="font-family:'DejaVu Sans';letter-spacing:6px"><p dir="rtl">مرحبا بالعالم 123 abc</p>
<p dir="rtl">ابجد، هوز (حطي) 12</p><p>abc مرحبا def</p><p dir="rtl">شركة&nbsp;النخيل. שלום עולם</p></div>`, 0.1},
		{"right to left indent and static positions", `<style>.c{position:relative;height:50px;border:1px solid;margin:4px 20px;padding:0 10px}</style>
<p dir="rtl" style="text-indent:40px;width:300px">פסקה עם הזחה בשורה הראשונה שהיא ארוכה מספיק כדי להישבר לשתי שורות</p>
<div class="c" dir="rtl"><div style="position:absolute;top:2px">בלוק מוחלט</div></div><div class="c" dir="rtl"><p style="margin:0">שורה <span style="position:absolute;top:25px">אמצע</span> המשך</p></div>
<div class="c" dir="rtl"><div style="position:absolute;top:2px;width:100px">רוחב</div></div><div class="c" dir="rtl"><div dir="ltr" style="position:absolute;top:2px">ltr in rtl</div></div>
<div class="c"><div dir="rtl" style="position:absolute;top:2px">rtl in ltr</div></div><div class="c" dir="rtl"><span style="position:absolute;top:5px">ריק</span></div>`, 0.1},
		{"inline isolation and overrides", `<div style="font-family:'DejaVu Sans'"><p>Order <span dir="rtl">שלום 123</span> total</p>
<p dir="rtl">מחיר <span dir="ltr">USD 1,234.50-</span> סה"כ</p><p>User <bdi>إيان</bdi>: 3 posts</p><p>Name: <span dir="rtl">דני!</span> ok</p>
<p dir="rtl">קוד <span dir="ltr">A-1 (x)</span>.</p><p><bdo dir="rtl">abc def</bdo> end</p><p dir="rtl"><bdo dir="ltr">שלום עולם</bdo> סוף</p>
<p>plain שלום 123 text</p><p>x <span style="unicode-bidi:embed;direction:rtl">abc 12!</span> y</p></div>`, 0.1},
		{"right to left inline-blocks and forced breaks", `<div dir="rtl" style="font-family:'DejaVu Sans'"><div style="display:inline-block;width:45%;margin-left:2%;border:1px solid">البائع<br>الرقم: 300123456700003</div><div style="display:inline-block;width:45%;margin-left:2%;border:1px solid">المشتري<br>الهاتف: <span dir="ltr">+966 12 345 6789</span></div>
<p>שורה ראשונה<br>מספר 12345 ו-abc def<br>עוד</p></div><p>Line one<br>שלום עולם 42 end</p>`, 0.1},
		{"inline boxes on bidi lines", `<style>.b{border:2px solid;padding:0 4px}.m{border-left:4px solid;margin:0 6px;padding:0 3px}</style>
<p dir="rtl">שלום <span class="b">עולם יפה abc def</span> סוף</p><p>Hello <span class="m">one שתיים three</span> tail</p>
<p dir="rtl">אחת <span class="m">שתיים three שלוש</span> ארבע</p><p dir="rtl" style="width:200px">שלום <span class="b">עולם יפה מאוד ארוך שנשבר בין שורות abc def ghi</span> סוף</p>
<p dir="rtl" style="font-family:'DejaVu Sans'"><span class="b">مرحبا <b>بالعالم</b> 123</span></p>`, 0.1},
		{"fixed heights across page breaks", `<div style="height:1000px"></div><div style="height:200px;overflow:hidden;background:#eee">` + strings.Repeat("<div>clipped line</div>", 20) + `</div>
<div style="height:150px;background:#ccc">tall block</div><div>after the tall block</div><div style="height:900px"></div><div style="height:150px;background:#ccc"></div><div>after the empty block</div>`, 0.1},
		{"text-overflow: ellipsis", `<style>.t{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;width:200px;border:1px solid #ccc}</style>
<p class="t">A long line of text that will not fit in two hundred pixels</p>
<p class="t"><span style="display:inline-block;width:10px;height:10px;background:red"></span> NQ-P-118 SCADA integration testing with a long name</p>
<p class="t" style="color:#06c">Short</p><p class="t"><b>Bold start</b> and then <i>italic words that go on and on</i></p>
<p class="t" style="width:120px">Supercalifragilisticexpialidocious</p>
<table style="table-layout:fixed;width:300px"><tr><td style="width:100px"><p class="t" style="width:auto;margin:0">cell text truncated here at the end</p></td><td>other</td></tr></table>`, 0.1},
		{"shrunk to fit a fraction of a pixel too wide", `<div style="position:relative;margin-left:300px;height:100px">marker text<div style="position:absolute;width:800px;height:10px;background:#eee;top:40px;left:100.25px"></div></div><p style="text-align:right;margin:0">right</p>`, 0.1},
		{"table cells have no margins", `<table style="width:580px;border-collapse:collapse"><tr><td style="padding:0"><table style="border-collapse:collapse;width:100%"><tr>
<th style="margin:0 auto;padding:0 8px 16px 16px;text-align:left;width:80.67px">IMG</th><th style="margin:0 auto;padding:0 8px 16px 8px;text-align:left;width:370px"><p style="margin:4px 0">Fjord ANC Over-Ear Headphones</p></th>
<th style="margin:20px;padding:0 16px 16px 8px;text-align:left;width:80.67px"><p style="text-align:right;margin:4px 0">x 1</p></th></tr></table></td></tr></table>`, 0.1},
		{"text in SVG drawings", `<img width="200" height="100" src="data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='200' height='100' viewBox='0 0 200 100'><rect width='200' height='100' fill='%23eef'/><text x='10' y='30' font-family='Arial, sans-serif' font-size='16'>Fernhill Supply</text><text x='100' y='60' text-anchor='middle' font-family='monospace' font-size='12' fill='%23c00'>03318 <tspan font-weight='bold'>BOLD</tspan></text><text x='190' y='90' text-anchor='end' font-family='Georgia, serif' font-size='10'>ACCREDITED</text></svg>">
<p>After <svg width="120" height="30" viewBox="0 0 120 30"><text x="2" y="20" font-family="Liberation Sans, Arial, sans-serif" font-size="14" font-weight="700" font-style="italic">VISA card</text></svg> text</p>
<img width="150" height="40" src="data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='150' height='40'><rect width='150' height='40' fill='%23333'/><text x='48' y='24' font-family='Arial, Helvetica, sans-serif' font-weight='bold' font-size='15' fill='%23fff' font-style='italic' textLength='66' lengthAdjust='spacingAndGlyphs'>SWIFTLINE</text></svg>">`, 0.1},
		{"a table pushed to the next page keeps its border", `<div style="height:1100px;background:#eee">filler</div>
<table style="width:100%;margin-top:26px;border:3px solid #d9dee5" cellpadding="0" cellspacing="2"><tr><td style="padding:16px 20px">Prefer a bank transfer?<br>line two</td></tr></table>
<p>after text</p>
`, 0.1},
		{"an e-mail's content cell beside a coloured cell breaks inside", `<table style="width:100%" cellpadding="0" cellspacing="0"><tr><td style="background:#fff">
<table style="width:640px" cellpadding="0" cellspacing="0"><tr><td width="6" style="width:6px;background:#e4572e;font-size:0;line-height:0">&nbsp;</td>
<td style="padding:8px 0 0 34px">
<div style="height:1000px;background:#eee">filler</div>
<table style="width:100%;margin-top:6px" cellpadding="0" cellspacing="0"><tr><td style="width:45%">&nbsp;</td><td style="width:55%">
<table style="width:100%" cellpadding="0" cellspacing="0"><tr><td style="padding:6px 0;font-size:14px">Subtotal</td><td class="num" style="padding:6px 0">$5.00</td></tr>
<tr><td style="padding:12px 0 6px;border-top:2px solid #17324d;font-size:15px;font-weight:700">Amount due</td><td class="num" style="padding:12px 0 6px;border-top:2px solid #17324d;font-size:18px">$3,784.50</td></tr></table>
</td></tr></table>
<table style="width:100%;margin-top:26px;border:1px solid #d9dee5;border-radius:8px" cellpadding="0" cellspacing="0"><tr><td style="padding:16px 20px"><div style="font-size:14px;font-weight:700;padding-bottom:8px">Prefer a bank transfer?</div>
<table style="width:100%;font-size:13px;line-height:21px" cellpadding="0" cellspacing="0"><tr><td style="width:36%">Account name</td><td>Bright Harbor</td></tr><tr><td>Bank</td><td>Willamette</td></tr></table></td></tr></table>
<p>after text</p>
</td></tr></table></td></tr></table>`, 0.1},
		{"a body of height 100% holding a long page", `<style>html,body{height:100%}</style><div style="height:860px;background:#eee">filler</div>
<table width="600" cellspacing="0" cellpadding="0"><tr><td height="100%" valign="top" style="padding:10px 20px;background:#fafaf9"><table width="100%" cellspacing="0" cellpadding="0">
<tr><td width="18%" valign="top"><div style="width:72px;height:72px;background:#fed"></div></td><td valign="top"><h2 style="margin:0 0 4px;font-size:16px">Shared style guides</h2><p>Lock fonts, colours and spacing for the whole team so every draft starts on-brand.</p></td></tr>
<tr><td width="18%" valign="top"><div style="width:72px;height:72px;background:#def"></div></td><td valign="top"><h2 style="margin:0 0 4px;font-size:16px">Scheduled publishing</h2><p>Queue posts and newsletters to go out at the right hour.</p></td></tr>
</table></td></tr><tr><td style="padding:20px">View as a Web Page</td></tr></table><p>after the table</p>`, 0.1},
		{"repeating linear gradients", `<div style="height:70px;border:1px solid #ccc;background:repeating-linear-gradient(90deg,#000 0 2px,#fff 2px 4px,#000 4px 7px,#fff 7px 9px)">bars</div>
<div style="height:40px;background:repeating-linear-gradient(45deg,#ffd 0 10px,#ddf 10px 20px)">stripes</div><div style="height:30px;background:repeating-linear-gradient(to right,red,blue 50px)">ramp</div>`, 0.1},
		{"static positions of absolute boxes", `<div style="position:relative;height:100px">first text <div style="position:absolute">block abs</div> after</div>
<div style="position:relative;height:100px">first text <span style="position:absolute">inline abs</span> after</div>
<div style="position:relative;height:100px;text-align:center">centred text <div style="position:absolute">centred block abs</div> after</div>`, 0.1},
		{"absolute boxes below the flow get pages", `<div style="height:1200px;background:#eee;position:relative"><div>top</div><div style="position:absolute;bottom:0">bottom of box</div></div>
<div style="position:relative;height:50px">x<div style="position:absolute;top:1300px">far below</div></div>`, 0.1},
		{"viewport units measure the page area", `<style>@page{size:A5;margin:20mm 10mm}</style><div style="height:50vh;background:#eee"></div><div>after half vh</div>
<div style="width:50vw;background:#ccc">half vw box text</div><div style="margin-left:50vw">at half vw</div>`, 0.1},
		{"a sidebar as tall as the page", `<style>@page{size:letter;margin:0}html,body{height:100%}body{margin:0}</style><div style="display:flex;min-height:100vh">
<aside style="width:33%;background:#222;color:#fff;display:flex;flex-direction:column;padding:20px"><div>top</div><div style="margin-top:auto">bottom of sidebar</div></aside><main style="flex:1;padding:20px">main</main></div>`, 0.1},
		{"max-height across a page break", `<div style="height:1000px"></div><div style="max-height:200px;overflow:hidden;background:#eee">` + strings.Repeat("<div>held line</div>", 12) + `</div><div>after the held box</div>`, 0.1},
		{"margin boxes", `<style>@page{margin:25mm 20mm;@top-left{content:"Top left";font:9pt Arial}@bottom-center{content:"Page " counter(page) " of " counter(pages);font:9pt Arial}@bottom-right{content:counter(page)}}</style>` +
			strings.Repeat("<p>"+lorem+"</p>", 30), 0.1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ltExpectClose(t, "<!DOCTYPE html><html><head><meta charset=utf-8></head><body style=\"font-family:Arial\">"+c.html+"</body></html>", c.tol)
		})
	}
	// Whole documents: quirks mode (no doctype), the viewport of positioned
	// boxes, -webkit-center, named pages.
	docs := []struct{ name, html string }{
		{"quirks mode", `<html><body style="font:14px Arial"><p>First paragraph, its margin dropped.</p>
<div><img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" style="width:50px;height:30px"></div><div>after image</div>
<div style="height:50%;background:#eee">half the page</div><p>last</p></body></html>`},
		{"multi-column", `<!DOCTYPE html><html><body style="font:14px Arial;margin:0">
<div style="columns:2;column-gap:20px;width:300px;column-rule:2px dashed #888"><h3 style="margin:0">Head</h3><p style="margin:0 0 20px">` + lorem + `</p><p style="margin:0 0 20px">` + lorem + `</p></div><div>after two</div>
<div style="columns:3;column-gap:20px;width:400px"><p style="margin:0 0 20px">` + lorem + `</p><p style="margin:0 0 20px">` + lorem + `</p><p style="margin:0 0 20px">Short.</p></div><div>after three</div>
<div style="column-width:120px;column-gap:1em;text-align:justify;direction:rtl">` + lorem + lorem + `</div>
<table style="width:100%"><colgroup><col style="width:10%"><col></colgroup><tr><td><span style="padding:0 6px;background:#def;text-transform:uppercase">Withdrawal</span></td><td>next cell</td></tr></table></body></html>`},
		{"column breaks", `<!DOCTYPE html><html><body style="font:14px Arial;margin:20px"><div style="columns:3;column-gap:20px;width:500px">
<div style="break-inside:avoid-column;border:1px solid #999;margin-bottom:8px;padding:4px">Card one with a few lines of text that wrap inside the card box here and there.</div>
<div style="-webkit-column-break-inside:avoid;border:1px solid #999;margin-bottom:8px;padding:4px">Card two with a few lines of text that wrap inside the card box here and there and more.</div>
<div style="break-inside:avoid-column;border:1px solid #999;margin-bottom:8px;padding:4px">Card three with a few lines of text.</div>
<h3 style="break-before:column;margin:0">Forced column</h3><p style="margin:0">After a forced column break.</p>
</div><p>Below: break-before column outside columns does nothing.</p><p style="break-before:column">Still here.</p><p style="break-before:avoid-column;break-after:column">And here.</p></body></html>`},
		{"columns near the page end", `<!DOCTYPE html><html><body style="margin:0;font:16px Arial">
<div style="height:1110px;background:#eee">filler</div>
<div style="columns:2;column-gap:20px"><p style="margin:0">Line1 of the columns</p><p style="margin:0">Line2</p><p style="margin:0">Line3</p><p style="margin:0">Line4</p></div><p>after</p></body></html>`},
		{"columns of a fixed height", `<!DOCTYPE html><html><body style="margin:20px;font:16px Arial">
<div style="columns:2;column-gap:20px;height:40px;width:400px"><p style="margin:0">Alpha one</p><p style="margin:0">Bravo two</p><p style="margin:0">Charlie three</p><p style="margin:0">Delta four</p><p style="margin:0">Echo five</p><p style="margin:0">Foxtrot six</p></div><p>after the fixed height</p></body></html>`},
		{"a one-cell row in columns", `<!DOCTYPE html><html><body style="margin:20px;font:16px Arial">
<div style="columns:2;column-gap:20px;width:400px"><table><tr><td>Line1<br>Line2<br>Line3<br>Line4<br>Line5<br>Line6<br>Line7<br>Line8<br>Line9<br>Line10</td></tr></table><p>Echo</p></div></body></html>`},
		{"a table header in columns", `<!DOCTYPE html><html><body style="margin:20px;font:16px Arial">
<div style="columns:2;column-gap:20px;width:400px"><table><thead><tr><th>Head</th></tr></thead><tbody>
<tr><td>r1</td></tr><tr><td>r2</td></tr><tr><td>r3</td></tr><tr><td>r4</td></tr><tr><td>r5</td></tr><tr><td>r6</td></tr><tr><td>r7</td></tr><tr><td>r8</td></tr></tbody></table></div></body></html>`},
		{"quirks mode tables", `<html><head><style>body{font:13px Verdana;font-weight:bold;text-align:center} .Note{color:red} td.cell{padding:3px}</style></head><body>
<table width="100%" height="100%" border="1" cellspacing="0"><tr><td valign="top" class="cell"><p>Paragraph in a cell, its margins dropped.</p>
<h3>Heading</h3><p class="note">table text in the initial font</p><font size="2">small <b>bold</b></font><br><img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" width="40" height="20"></td>
<td width="30%"><table height="50%" width="100%" bgcolor="#eeeeee"><tr><td>nested half height</td></tr></table></td></tr>
<tr><td colspan="2" height="40">last row</td></tr></table><p>after</p>
<table cellspacing="0" border="1"><tr><td style="width:200px;padding:0 50px">padded cell</td><td>next cell</td></tr></table></body></html>`},
		{"viewport and fixed", `<!DOCTYPE html><html><head><style>@page{margin:20mm}</style></head><body style="font:14px Arial">
<div style="position:absolute;top:0;right:0">corner</div><div style="position:absolute;top:50%;left:50%">half</div>
<div style="position:fixed;bottom:0;left:0;width:100%;text-align:center">fixed footer</div>` + strings.Repeat("<p>"+lorem+"</p>", 25) + `</body></html>`},
		{"centre", `<!DOCTYPE html><html><body style="font:16px Arial"><center><div style="width:200px">centred block</div></center>
<div align="right"><div style="width:100px">right block</div></div><div style="text-align:center"><div style="display:inline-block;margin:0 auto;min-width:300px">inline-block auto margins</div></div></body></html>`},
		{"named pages", `<!DOCTYPE html><html><head><style>@page wide{size:297mm 210mm}.w{page:wide}</style></head><body style="font:16px Arial">
<p>portrait</p><div class="w"><p>landscape</p></div><p style="break-before:left">back</p></body></html>`},
	}
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) { ltExpectClose(t, d.html, 0.1) })
	}
}

var ltPageRE = regexp.MustCompile(`width="([\d.]+)" height="([\d.]+)"`)

// ltSamePages reports whether two documents have as many pages, of the
// same sizes within 0.01 pt.
func ltSamePages(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ma, mb := ltPageRE.FindStringSubmatch(a[i]), ltPageRE.FindStringSubmatch(b[i])
		if ma == nil || mb == nil {
			return false
		}
		for k := 1; k <= 2; k++ {
			x, _ := strconv.ParseFloat(ma[k], 64)
			y, _ := strconv.ParseFloat(mb[k], 64)
			if math.Abs(x-y) > 0.01 {
				return false
			}
		}
	}
	return true
}

// TestHeaderFooterMatchesChromium prints a two-page document with
// displayHeaderFooter templates: the templates' words must be where
// Chromium puts them on every page.
func TestHeaderFooterMatchesChromium(t *testing.T) {
	g := ltGeometry(`{"pageSize":"A4","margins":{"top":"25mm","bottom":"22mm","left":"15mm","right":"15mm"}}`)
	header := `<div style="font:9px Arial">Acme Ltd <b>report</b></div><div style="margin-left:auto;font:9px Arial">Confidential</div>`
	footer := `<div style="font:10px Arial;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`
	body := "<!DOCTYPE html><html><body style=\"font:12px Arial\">" + strings.Repeat("<p>"+lorem+"</p>", 40) + "</body></html>"
	ltChromiumPDF(t, "<p>x</p>", g)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cr, err := ltCrEngine.Render(ctx, render.Job{HTML: render.Document(body, g, ""), Geometry: g, Header: header, Footer: footer})
	if err != nil {
		t.Fatal(err)
	}
	_, _, run, _ := ltLayoutDoc(t, body, g, Options{Header: header, Footer: footer})
	ph, err := run()
	if err != nil {
		t.Fatal(err)
	}
	a, pa := ltWords(t, cr)
	b, pb := ltWords(t, ph)
	c := ltCompare(a, b)
	if !ltSamePages(pa, pb) || c.missing > 0 || c.extra > 0 || c.worst > 0.1 {
		t.Errorf("pages %d/%d, words %d matched %d (missing %d extra %d), worst %.3f (%q)", len(pa), len(pb), c.total, c.matched, c.missing, c.extra, c.worst, c.worstWord)
		for _, r := range c.report {
			t.Log(r)
		}
	}
	if len(pa) < 2 {
		t.Fatalf("the document should take two pages, not %d", len(pa))
	}
}
