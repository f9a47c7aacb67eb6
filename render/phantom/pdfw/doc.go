// Package pdfw is phantom's PDF writer: it turns a draw.Document (the display
// list layout produces, in CSS pixels with y down) into PDF 1.7 bytes.
//
// Invariants:
//   - The same document gives the same bytes: no clock, no randomness, every
//     map iterated in a sorted order, and the file /ID is a hash of the content.
//   - Each draw.Font used becomes one Type0 font (Identity-H) over a subset of
//     the font file; each *draw.Image (by pointer) becomes one XObject.
//   - Bad input (unbalanced pushes, empty paths, zero-size images, NaNs) never
//     panics: it is clamped, skipped or reported as an error.
package pdfw
