package pdfw

import (
	"sync"

	"github.com/klauspost/compress/zlib"
)

// DefaultCompression is the flate level used when Options.Compression is 0.
// Level 6 is the knee for our streams (BenchmarkLevels: a one-page invoice
// with nothing cached, so its three font programs are compressed too; CPU
// time on a loaded two-core machine): level 1 20062 B in ~0.55 ms, level 4
// 19148 B, level 6 18800 B in ~0.8 ms, level 9 18588 B in ~1.37 ms. Font
// programs, most of the bytes, are compressed once per glyph set and then
// cached, so the level's cost is paid mostly once per template.
const DefaultCompression = 6

// zlibPools keeps one pool of compressors per level: a zlib writer owns
// about 600 KB of tables, far too much to allocate for every stream.
var zlibPools [10]sync.Pool

// sliceWriter appends to a byte slice, the sink for compressed streams.
type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

// appendDeflate appends the zlib (FlateDecode, 7.4.4) encoding of data to dst.
func appendDeflate(dst, data []byte, level int) []byte {
	if level < 1 || level > 9 {
		level = DefaultCompression
	}
	sw := sliceWriter{b: dst}
	zw, _ := zlibPools[level].Get().(*zlib.Writer)
	if zw == nil {
		zw, _ = zlib.NewWriterLevel(&sw, level)
	} else {
		zw.Reset(&sw)
	}
	zw.Write(data) // a sliceWriter never fails
	zw.Close()
	zw.Reset(nil)
	zlibPools[level].Put(zw)
	return sw.b
}
