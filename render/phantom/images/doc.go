// Package images turns the src of an <img> or a CSS url() into something the
// display list can paint: a raster (draw.Image) or an SVG drawn as vectors
// (draw ops).
//
// Only data: URIs are loaded, since phantom, like production Chromium, lets a
// document reach nothing outside itself; any other URL is an error that the
// engine records as a failed asset (Chromium would show nothing).
//
// Invariants:
//   - The same bytes give the same *Image for the life of the process (while
//     cached): the PDF writer embeds an image once per document by pointer, and
//     templates put the same logo in every document. The cache is keyed by the
//     SHA-256 of the decoded bytes and bounded in entries and bytes.
//   - An *Image and everything it points to is read-only once returned: it is
//     shared by every goroutine.
//   - Limits are checked before pixels are decoded (DecodeConfig): at most
//     MaxPixels pixels and MaxBytes bytes of payload; an SVG at most
//     maxSVGDepth deep and maxSVGElements elements. Bad input is an error,
//     never a panic.
//   - Raster types are sniffed from the bytes as Chromium's decoders do,
//     whatever the declared media type; SVG is recognised only when declared
//     image/svg+xml, as in Chromium.
package images
