package pdfw

import (
	"sync"

	"github.com/klauspost/compress/zlib"
)

// DefaultCompression is the flate level used when Options.Compression is 0.
// Level 6 is where klauspost's encoder stops gaining size for the time it
// spends on our streams (font programs dominate); see the package benchmarks
// and the figures in the report that chose it.
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
