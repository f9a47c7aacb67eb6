// Package fonts is phantom's font system: the machine's fonts, family
// resolution as Chromium does it on Linux, per-character fallback, metrics
// rounded as Blink rounds them, and shaping with go-text's HarfBuzz port.
//
// Everything here answers one question: which face, at which size, puts
// which glyph where, so that a page set by phantom cannot be told from the
// same page printed by Chromium on the same machine. The tests print with
// the production Chromium and read every glyph's font, id and position
// back from its PDF.
//
// What Chromium does, and this package with it:
//
//   - Families (resolve.go, fcconfig.go, match.go). Blink maps generic
//     names through its settings (serif and sans-serif to Times New Roman
//     and Arial, monospace to fontconfig's Monospace, system-ui to Sans,
//     cursive and fantasy to Comic Sans MS and Impact), then asks fontconfig
//     per family. Skia accepts fontconfig's answer only when it is the family
//     asked for, the family fontconfig's rules put first, or metric-compatible
//     with it (Arial and Liberation Sans, Times New Roman and Liberation
//     Serif, Courier New and Liberation Mono); otherwise Blink tries its
//     alternate name (Helvetica and Arial, Times and Times New Roman, Courier
//     and Courier New), then the next family, then the standard font (Times
//     New Roman). So Helvetica prints in Liberation Sans even when URW's
//     Nimbus Sans is installed: fontconfig answers Nimbus Sans, Skia refuses
//     it, and Arial gives Liberation Sans. fontconfig's configuration is read
//     from /etc/fonts (or FONTCONFIG_FILE) and its substitution and sort
//     emulated, so the package follows whatever the machine has installed.
//   - Synthesis. Bold is faked when the weight asked is more than 200 above
//     the face's, italic when italic or oblique is asked of an upright face.
//     Chromium slants by 0.25 (the PDF text matrix's shear) and, in its
//     PDFs, draws emboldened TrueType glyphs as Type 3 outlines stroked by
//     1/32 em (Run.FakeBold is that width in px).
//   - Fallback (shape.go, fallback.go). Blink shapes an item (a script run,
//     emoji apart) with the primary face, then shapes the clusters left as
//     .notdef with the list's other faces, the standard font, the system's
//     face for one hint character at a time, the last-resort font, and
//     finally leaves the primary's .notdef. The order matters: a character
//     no face has (₿) stops the system stage, and what follows it falls to
//     the last-resort font.
//   - Sizes and advances (scale.go). Blink truncates the font size to 1/100
//     px (11pt, 14.666667px, prints at 14.66); FreeType's size is that
//     truncated to 1/64 px; advances are FreeType's linear advances in 16.16,
//     kerning is HarfBuzz's at the font size. Positions are fractional (no
//     rounding to whole pixels).
//   - Metrics (metrics.go). Ascent and descent from hhea (or OS/2 typo
//     metrics when USE_TYPO_METRICS is set), each rounded to whole pixels,
//     without the subpixel-positioning pixel borrow; line spacing is
//     round(ascent) + round(descent) + round(line gap).
//   - Ink (ink.go). A glyph's ink across a band of heights, from its
//     outline, for the underlines that skip ink as Chromium's do.
//
// Invariants:
//   - A Library is scanned once per process (Default) and is read-only after
//     that, apart from lazily filled, mutex-guarded caches; it is safe for
//     concurrent use.
//   - There is one *draw.Font per face for the life of the process; its Data
//     is read once and shared read-only.
//   - A Shaper owns its go-text faces and its cache of shaped text; it is not
//     safe for concurrent use, so each worker goroutine has its own.
//   - Runs returned by Shape are shared with the cache: callers copy Glyphs
//     before changing them.
//   - Layout must place separately shaped pieces of text (bidi runs, inline
//     items) at positions rounded to 1/64 px, as LayoutNG does; within a
//     Shape result, positions are not rounded.
package fonts
