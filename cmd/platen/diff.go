package main

import (
	"fmt"
	"strings"

	"github.com/platen/platen/internal/lcs"
)

// A line diff for `platen templates push`: Myers' algorithm over lines
// (internal/lcs), and unified output with three lines of context, as diff -u
// prints it.

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

// diffLines is the shortest edit script turning a into b: the lines of a
// longest common subsequence kept (internal/lcs), and between two of them
// the lines removed, then the lines added.
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
	x, y := pre, pre
	changes := func(toX, toY int) {
		for ; x < toX; x++ {
			out = append(out, edit{'-', a[x]})
		}
		for ; y < toY; y++ {
			out = append(out, edit{'+', b[y]})
		}
	}
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	for _, p := range lcs.Myers(len(midA), len(midB), func(i, j int) bool { return midA[i] == midB[j] }, 0) {
		changes(pre+p[0], pre+p[1])
		out = append(out, edit{' ', a[x]})
		x, y = x+1, y+1
	}
	changes(len(a)-suf, len(b)-suf)
	for _, l := range a[len(a)-suf:] {
		out = append(out, edit{' ', l})
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
