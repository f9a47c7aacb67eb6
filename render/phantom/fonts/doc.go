// Package fonts is phantom's font system: the machine's fonts, family
// resolution as Chromium does it on Linux, per-character fallback, metrics
// rounded as Blink rounds them, and shaping with go-text's HarfBuzz port.
//
// Everything here answers one question: which face, at which size, puts
// which glyph where, so that a page set by phantom cannot be told from the
// same page printed by Chromium on the same machine.
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
package fonts
