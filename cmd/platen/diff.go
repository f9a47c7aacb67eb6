package main

import (
	"fmt"
	"strings"
)

// A line diff for `platen templates push`: Myers' O((N+M)D) algorithm
// ("An O(ND) Difference Algorithm and Its Variations", 1986) over lines, and
// unified output with three lines of context, as diff -u prints it.

// edit is one line of a diff: ' ' kept, '-' removed, '+' added.
type edit struct {
	op   byte
	line string
}

// splitLines splits s into lines without their newlines; a final newline
// does not make an empty last line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// diffLines is the shortest edit script turning a into b.
func diffLines(a, b []string) []edit {
	// Common ends are kept as they are: a version's edit is usually small.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []edit
	for _, l := range a[:pre] {
		out = append(out, edit{' ', l})
	}
	out = append(out, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, edit{' ', l})
	}
	return out
}

// myers is the shortest edit script of a into b, by the greedy forward
// search with the furthest-reaching path kept for each diagonal k = x - y at
// each cost d, and the path walked back from the trace.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	off := max
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, off, d)
			}
		}
	}
	return nil // not reached: d = n+m always ends
}

// backtrack walks the trace from (n, m) back to (0, 0).
func backtrack(a, b []string, trace [][]int, off, dEnd int) []edit {
	x, y := len(a), len(b)
	var rev []edit
	for d := dEnd; d > 0; d-- {
		v := trace[d] // the furthest x of each diagonal before step d
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, edit{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, edit{'+', b[y]})
		} else {
			x--
			rev = append(rev, edit{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, edit{' ', a[x]})
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

// unified is the diff of a and b as diff -u prints it, with the file names
// in its header, or "" when they are the same.
func unified(nameA, nameB, a, b string) string {
	if a == b {
		return ""
	}
	edits := diffLines(splitLines(a), splitLines(b))
	const ctx = 3
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	// Hunks: runs of changes with up to ctx kept lines around them; changes
	// closer than 2*ctx share a hunk.
	i := 0
	for i < len(edits) {
		for i < len(edits) && edits[i].op == ' ' {
			i++
		}
		if i == len(edits) {
			break
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(edits) {
			if edits[end].op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(edits) && edits[run].op == ' ' {
				run++
			}
			if run == len(edits) || run-end > 2*ctx {
				end = min(end+ctx, len(edits))
				break
			}
			end = run
		}
		// Line numbers of the hunk's first line on each side.
		la, lb := 1, 1
		for _, e := range edits[:start] {
			if e.op != '+' {
				la++
			}
			if e.op != '-' {
				lb++
			}
		}
		na, nb := 0, 0
		for _, e := range edits[start:end] {
			if e.op != '+' {
				na++
			}
			if e.op != '-' {
				nb++
			}
		}
		if na == 0 {
			la--
		}
		if nb == 0 {
			lb--
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(la, na), hunkRange(lb, nb))
		for _, e := range edits[start:end] {
			sb.WriteByte(e.op)
			sb.WriteString(e.line)
			sb.WriteByte('\n')
		}
		i = end
	}
	return sb.String()
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
