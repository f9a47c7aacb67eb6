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
// implement (flex, grid, floats, transforms, web fonts, scripts); the
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
//     costs one word and does not shift the rest. A matched word's
//     displacement is the largest of the differences of its four box edges
//     (xMin, yMin, xMax, yMax) in points: it is the distance by which either
//     box must grow to cover the other, so it catches a word that moved, a
//     word set wider or narrower (another face, size or spacing) and a word
//     on another page (infinite). An unmatched word counts as infinitely
//     displaced. Median and Within are taken over max(reference words,
//     candidate words), so missing text cannot hide.
//   - Pixels: each page pair rendered in gray at 72 dpi; a pixel differs
//     when no pixel of the other render within one pixel of it (its 3×3
//     neighbourhood) is within GrayTolerance of its value, checked both
//     ways. Sub-pixel shifts and antialiasing move ink by less than a
//     pixel and do not count; a missing, extra, moved or restyled glyph does.
//     A page's figure is the differing pixels as a share of its ink (pixels
//     darker than white in either render); a document's is its worst page.
//
// The bar (Bar, DefaultBar) is the issue's: median at most 0.5 pt, at least
// 98 % of words within 2 pt, the same pages, and the pixel share under
// MaxPixelShare, a threshold measured on perturbed Chromium renders (see
// DefaultBar).
//
// The report (WriteSideBySide, Table) shows the worst cases: the worst page
// of a document as Chromium | phantom | difference.
package corpus
