// Package pdfw is phantom's PDF writer: it turns a draw.Document (the
// display list layout produces, in CSS pixels with y down) into PDF 1.7.
// It owns no state between documents beyond caches that only make it
// faster: parsed fonts, compressed font subsets, compressed images.
//
// # Output
//
// Each page's content stream starts with a CTM that makes user space CSS
// pixels with y down (.23999999 0 0 -.23999999 0 h cm 3.125 0 0 3.125 0 0
// cm, Chromium's own two matrices, so that readers round half pixels as
// they do in Chromium's PDFs), so draw's coordinates are
// written as they are; text is set with a text matrix of 1 0 0 -1 that
// stands the glyphs back up. A page is Width*0.75 × Height*0.75 pt.
//
// Every draw.Font used becomes a Type0 font with Identity-H over a subset:
// CIDFontType2 over a TrueType program for glyf fonts (our own subsetter,
// which copies outlines and drops hinting), CIDFontType0 over a bare CFF
// program (FontFile3 /CIDFontType0C) for CFF fonts (our own subsetter for
// name-keyed programs, tdewolff/font's for CID-keyed ones). The glyphs are
// renumbered: CID i is glyph i of the subset, given in glyph id order, so
// no CIDToGIDMap is needed, the W array is one run, and documents showing
// the same glyphs share a subset (cached compressed, per font). A ToUnicode
// CMap maps each CID to its cluster's text: ligatures to several
// characters, a glyph shown for several texts to the lowest single code
// point among them. A cluster that reads otherwise (a soft hyphen or a
// zero-width space shown as a space glyph, a synthesised small capital) is
// wrapped in an ActualText span with its own text, as Skia does.
//
// Text runs are TJ arrays: a number moves a glyph only where layout's
// advance and the font's width disagree by more than 0.02 px. A glyph
// wholly outside the bounds of the current clip is left out, as Skia's PDF
// device leaves it out, so clipped-away text is not in the text layer
// either (the writer keeps the clip's bounds in page pixels). Fake bold is
// Type 3 fonts of filled and stroked outlines, as Chromium writes it
// (type3.go: pdftotext reads it differently), fake italic a skew in the
// text matrix. Alpha goes through ExtGStates (deduplicated); an opacity
// over more than one painting operation becomes a transparency group
// XObject, as in a browser, and over one is multiplied into it.
//
// Dictionaries go into one compressed object stream with a cross-reference
// stream (Options.NoObjectStreams writes the classic layout); all pages
// share one resource dictionary through the page tree.
//
// # Invariants
//
//   - The same document gives the same bytes: no clock, no randomness,
//     every map iterated in a sorted order or in the document's order, and
//     the file /ID is a hash of the content. Caches never change the bytes.
//   - Each draw.Font (by pointer) is one font, each *draw.Image one image
//     XObject, however often they are used.
//   - Bad input (NaNs, infinities, empty or malformed paths, zero-size or
//     short images, glyph ids outside the font, unbalanced or too deep
//     pushes, nil pages) never panics and never makes an unreadable file:
//     it is clamped, skipped or balanced. Only a font that cannot be
//     embedded fails a document (ErrFont), so the engine can hand it on.
//   - Write is safe for concurrent use; its buffers are pooled.
package pdfw
