// Package lcs finds a longest common subsequence of two sequences by
// E. Myers' greedy O((N+M)D) algorithm ("An O(ND) Difference Algorithm and
// Its Variations", 1986). The phantom corpus pairs two documents' words
// with it (render/phantom/corpus), and `platen templates push` shows a
// version's change as a line diff (cmd/platen/diff.go). It is pure: no
// state, no I/O.
package lcs

// Myers returns the index pairs (i of a, j of b) of a longest common
// subsequence of two sequences of lengths n and m, in order, where eq(i, j)
// says a[i] and b[j] are the same; or none when more than limit edits
// separate them (limit <= 0: no bound). Memory is about D² ints for D
// edits.
func Myers(n, m int, eq func(i, j int) bool, limit int) [][2]int {
	if n == 0 || m == 0 {
		return nil
	}
	if limit <= 0 || limit > n+m {
		limit = n + m
	}
	off := limit + 1
	v := make([]int32, 2*limit+3)
	// trace[d] holds v[k] for k in [-d-1, d+1] before step d.
	trace := make([][]int32, 0, 16)
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int32(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && eq(x, y) {
				x++
				y++
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	return nil
}

// backtrack walks the trace from (n, m) back to (0, 0), collecting the
// diagonal steps: the pairs.
func backtrack(trace [][]int32, n, m int) [][2]int {
	var rev [][2]int
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		t := trace[d]
		at := func(k int) int { return int(t[k+d+1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, [2]int{x, y})
		}
		x, y = px, py
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
