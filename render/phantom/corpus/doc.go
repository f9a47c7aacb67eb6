// Package corpus is phantom's quality bar: a golden corpus of print documents
// that TestCorpus renders with both engines, and the comparison that judges
// phantom's PDF against Chromium's the way a reader would.
//
// The corpus is every starter template filled with its sample data (taken
// from the starter library itself, so it follows the starters as they
// change) and the documents under testdata: one .html file per document on
// A4 with no page margin, or a template folder (template.html,
// manifest.json, optional sample.json, as starters.Load reads it) when a
// document needs another page size, margins, a header or a footer. A
// document whose name starts with "handoff-" uses what phantom does not
// implement (grid, transforms, web fonts, scripts,
// multiple columns); the
// platform default must hand it to Chromium, and it is not compared.
//
// The comparison reads each PDF once with poppler (Analyze: pdftotext -bbox
// for the page sizes and the word boxes, pdftoppm -r 72 -gray for the
// pixels) and Compare measures three things:
//
//   - Pages: the same count and, page by page, the same size within
//     PageSizeTolerancePt.
//   - Words: the two word lists are matched in reading order by a diff of
//     their texts (a longest common subsequence), so a missing or extra word
//     costs one word and does not shift the rest (in right-to-left text,
//     whose letters pdftotext may read in either order, by the word's
//     sorted letters; see flatten). A matched word's
//     displacement is the largest of the differences of its four box edges
//     (xMin, yMin, xMax, yMax) in points: it is the distance by which either
//     box must grow to cover the other, so it catches a word that moved, a
//     word set wider or narrower (another face, size or spacing) and a word
//     on another page (infinite). The distance of box centres would miss a
//     word grown equally on both sides, and xMin and yMin alone a
//     left-aligned word set in another face. pdftotext takes yMin and yMax
//     from the font's ascent and descent as the PDF declares them, so
//     phantom's writer must declare them as Skia does for the y edges to
//     agree (a constant offset of the y edges in Result.Offset, with x at
//     zero, is that). An unmatched word counts as infinitely
//     displaced. Median and Within are taken over max(reference words,
//     candidate words), so missing text cannot hide.
//   - Pixels: each page pair rendered in gray at 72 dpi and blurred with the
//     3×3 binomial kernel; a pixel differs when its gray lies more than
//     GrayTolerance outside the range of the other render's 3×3
//     neighbourhood around it, checked both ways. Sub-pixel shifts and
//     antialiasing stay within the range of the values around them; a
//     missing, extra, moved or restyled glyph, rule, image or background does
//     not, nor does a line one pixel heavier. A page's figure is the
//     differing pixels as a share of its ink (pixels darker than
//     255−GrayTolerance in either blurred render); a document's is its worst
//     page.
//
// The bar (Bar, DefaultBar) is the issue's: median at most 0.5 pt, at least
// 98 % of words within 2 pt, the same pages, and a pixel share of at most
// MaxPixelShare (1 %), a threshold measured on perturbed Chromium renders
// (see DefaultBar; TestComparisonOnPerturbedRenders keeps the measurements
// as a test).
//
// TestCorpus takes its engines from engines_test.go, the one file the
// engine's owner edits: the candidate it compares with Chromium
// (-candidate: phantom, or Chromium itself, when every figure must be
// exactly zero) and phantom, whose platform default's choice
// (render.Renderer.Choose with "auto") it holds to the corpus: Chromium for
// every hand-off document, phantom for every other.
//
// The report (go test ./render/phantom/corpus -run 'TestCorpus$' -v -report
// DIR; WriteReport, WriteTable, SideBySide) prints the table of every
// document and writes the worst pages as Chromium | phantom | difference,
// with every PDF for a closer look.
package corpus
