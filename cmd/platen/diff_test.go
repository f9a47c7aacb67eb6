package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lcsLen is the length of a longest common subsequence, by the textbook
// table: the edit script's kept lines must number as many.
func lcsLen(a, b []string) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}

// TestDiffLinesIsAShortestEditScript: on random texts over a small alphabet
// the script turns a into b and keeps as many lines as an LCS has.
func TestDiffLinesIsAShortestEditScript(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() []string {
		out := make([]string, r.IntN(12))
		for i := range out {
			out[i] = string(rune('a' + r.IntN(4)))
		}
		return out
	}
	for i := 0; i < 3000; i++ {
		a, b := gen(), gen()
		edits := diffLines(a, b)
		var gotA, gotB []string
		kept := 0
		for _, e := range edits {
			switch e.op {
			case ' ':
				gotA, gotB = append(gotA, e.line), append(gotB, e.line)
				kept++
			case '-':
				gotA = append(gotA, e.line)
			case '+':
				gotB = append(gotB, e.line)
			}
		}
		if strings.Join(gotA, ",") != strings.Join(a, ",") || strings.Join(gotB, ",") != strings.Join(b, ",") {
			t.Fatalf("%v → %v: the script %v does not turn one into the other", a, b, edits)
		}
		if want := lcsLen(a, b); kept != want {
			t.Fatalf("%v → %v: %d lines kept, an LCS has %d", a, b, kept, want)
		}
	}
}

// TestUnifiedIsWhatPatchApplies: GNU patch turns the old text into the new
// one with our hunks, when patch is on the machine.
func TestUnifiedIsWhatPatchApplies(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch here")
	}
	r := rand.New(rand.NewPCG(3, 4))
	gen := func() string {
		var sb strings.Builder
		for i := r.IntN(40); i > 0; i-- {
			sb.WriteString(string(rune('a'+r.IntN(3))) + "\n")
		}
		return sb.String()
	}
	dir := t.TempDir()
	for i := 0; i < 200; i++ {
		a, b := gen(), gen()
		d := unified("a", "b", a, b)
		if a == b {
			if d != "" {
				t.Fatalf("a diff of the same text: %q", d)
			}
			continue
		}
		f := filepath.Join(dir, "f")
		os.WriteFile(f, []byte(a), 0o600)
		cmd := exec.Command("patch", "-s", f)
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch refused\n%s\n%s\n%s", d, out, err)
		}
		got, _ := os.ReadFile(f)
		if string(got) != b {
			t.Fatalf("patched %q, want %q, with\n%s", got, b, d)
		}
	}
}

func TestUnifiedShowsTheChangedLine(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"
	want := "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
	if got := unified("a", "b", a, b); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
