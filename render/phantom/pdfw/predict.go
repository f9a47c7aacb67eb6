package pdfw

// appendPredicted appends the rows of a w×h image of n components, each
// row led by the PNG filter (None, Sub, Up, Average or Paeth) that leaves
// the smallest sum of absolute values, libpng's heuristic. Flate then
// finds far more repetition in the differences than in the pixels: a
// FlateDecode stream with /Predictor 15 undoes it (7.4.4.4).
func appendPredicted(dst, px []byte, w, h, n int, tmp *[4][]byte) []byte {
	stride := w * n
	for i := range tmp {
		if cap(tmp[i]) < stride {
			tmp[i] = make([]byte, stride)
		}
		tmp[i] = tmp[i][:stride]
	}
	var prev []byte
	for y := 0; y < h; y++ {
		row := px[y*stride : (y+1)*stride]
		best, bestSum := 0, sumAbs(row)
		for f := 1; f <= 4; f++ {
			out := tmp[f-1]
			filterRow(out, row, prev, n, f)
			if s := sumAbs(out); s < bestSum {
				best, bestSum = f, s
			}
		}
		dst = append(dst, byte(best))
		if best == 0 {
			dst = append(dst, row...)
		} else {
			dst = append(dst, tmp[best-1]...)
		}
		prev = row
	}
	return dst
}

// sumAbs is the sum of the bytes read as signed values.
func sumAbs(b []byte) int {
	s := 0
	for _, v := range b {
		if v < 128 {
			s += int(v)
		} else {
			s += 256 - int(v)
		}
	}
	return s
}

// filterRow writes row through PNG filter f (1 Sub, 2 Up, 3 Average,
// 4 Paeth) into out; prev is the row above, nil for the first.
func filterRow(out, row, prev []byte, n, f int) {
	for i := range row {
		var a, b, c int
		if i >= n {
			a = int(row[i-n])
		}
		if prev != nil {
			b = int(prev[i])
			if i >= n {
				c = int(prev[i-n])
			}
		}
		var p int
		switch f {
		case 1:
			p = a
		case 2:
			p = b
		case 3:
			p = (a + b) / 2
		case 4:
			p = paeth(a, b, c)
		}
		out[i] = row[i] - byte(p)
	}
}

func paeth(a, b, c int) int {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
