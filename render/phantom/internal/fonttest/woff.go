// Package fonttest wraps font files as WOFF and WOFF2 for tests: the
// tests read the fonts the machine has and make the web fonts they need,
// so the project holds no font files.
package fonttest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"

	"github.com/andybalholm/brotli"
)

// sfntTables splits an SFNT file into its tables, in directory order.
func sfntTables(b []byte) (flavor uint32, tags []string, data [][]byte) {
	flavor = binary.BigEndian.Uint32(b)
	n := int(binary.BigEndian.Uint16(b[4:]))
	for i := 0; i < n; i++ {
		rec := b[12+16*i:]
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		tags = append(tags, string(rec[:4]))
		data = append(data, b[off:off+length])
	}
	return flavor, tags, data
}

// WOFF wraps an SFNT file as WOFF 1.0: each table compressed with zlib.
func WOFF(sfnt []byte) []byte {
	flavor, tags, data := sfntTables(sfnt)
	var dir, body bytes.Buffer
	off := 44 + 20*len(tags)
	for i, tag := range tags {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(data[i])
		w.Close()
		comp := z.Bytes()
		if len(comp) >= len(data[i]) {
			comp = data[i]
		}
		dir.WriteString(tag)
		sum := data[i]
		if tag == "head" && len(sum) >= 12 {
			// head's checksum leaves out its checkSumAdjustment.
			sum = append([]byte(nil), sum...)
			copy(sum[8:12], []byte{0, 0, 0, 0})
		}
		binary.Write(&dir, binary.BigEndian, [4]uint32{uint32(off + body.Len()), uint32(len(comp)), uint32(len(data[i])), checksum(sum)})
		body.Write(comp)
		for body.Len()%4 != 0 {
			body.WriteByte(0)
		}
	}
	var h bytes.Buffer
	h.WriteString("wOFF")
	binary.Write(&h, binary.BigEndian, flavor)
	binary.Write(&h, binary.BigEndian, uint32(44+dir.Len()+body.Len()))
	binary.Write(&h, binary.BigEndian, uint16(len(tags)))
	binary.Write(&h, binary.BigEndian, uint16(0))
	binary.Write(&h, binary.BigEndian, uint32(len(sfnt)))
	binary.Write(&h, binary.BigEndian, [2]uint16{1, 0})
	binary.Write(&h, binary.BigEndian, [5]uint32{})
	return append(append(h.Bytes(), dir.Bytes()...), body.Bytes()...)
}

// WOFF2 wraps an SFNT file as WOFF 2.0 with every table stored as it
// is (glyf and loca with the null transform), compressed with Brotli.
func WOFF2(sfnt []byte) []byte {
	flavor, tags, data := sfntTables(sfnt)
	var dir, stream bytes.Buffer
	base128 := func(v uint32) {
		var b []byte
		for {
			b = append([]byte{byte(v & 0x7f)}, b...)
			v >>= 7
			if v == 0 {
				break
			}
		}
		for i := 0; i < len(b)-1; i++ {
			b[i] |= 0x80
		}
		dir.Write(b)
	}
	for i, tag := range tags {
		if tag == "head" && len(data[i]) > 18 {
			// WOFF2 asks for bit 11 of head.flags: the font was
			// transformed losslessly.
			h := append([]byte(nil), data[i]...)
			h[16] |= 1 << 3
			data[i] = h
		}
		flags := byte(63)
		if tag == "glyf" || tag == "loca" {
			flags |= 3 << 6 // the null transform
		}
		dir.WriteByte(flags)
		dir.WriteString(tag)
		base128(uint32(len(data[i])))
		stream.Write(data[i])
	}
	var comp bytes.Buffer
	w := brotli.NewWriterLevel(&comp, 9)
	w.Write(stream.Bytes())
	w.Close()
	var h bytes.Buffer
	h.WriteString("wOF2")
	binary.Write(&h, binary.BigEndian, flavor)
	total := 48 + dir.Len() + comp.Len()
	pad := (4 - total%4) % 4
	binary.Write(&h, binary.BigEndian, uint32(total+pad))
	binary.Write(&h, binary.BigEndian, uint16(len(tags)))
	binary.Write(&h, binary.BigEndian, uint16(0))
	binary.Write(&h, binary.BigEndian, uint32(len(sfnt)))
	binary.Write(&h, binary.BigEndian, uint32(comp.Len()))
	binary.Write(&h, binary.BigEndian, [2]uint16{1, 0})
	binary.Write(&h, binary.BigEndian, [5]uint32{})
	out := append(append(h.Bytes(), dir.Bytes()...), comp.Bytes()...)
	return append(out, make([]byte, pad)...)
}

// checksum is an SFNT table's checksum: the sum of its big-endian words,
// the last one padded with zeros.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
