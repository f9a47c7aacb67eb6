package handlebars

import (
	"errors"
	"fmt"
	"time"
)

// Limits bound one Exec; a zero field is no bound. Exec spends them as it
// goes and stops at the first it passes, so a fill ends with its refusal.
type Limits struct {
	// Steps bounds the units of work: each statement (text, {{x}}, block),
	// each pass through a block's body (one per item of a loop), each
	// helper call, and each item a path is read from when the context is a
	// list.
	Steps int64
	// Bytes bounds the output, counted as it is written.
	Bytes int64
	// Time bounds the wall-clock time, checked at every step.
	Time time.Duration
}

// ErrLimit is a fill stopped by its Limits. A *LimitError says which limit
// and where, and matches it with errors.Is.
var ErrLimit = errors.New("the template's fill passed a limit")

// Limit names one of Limits' bounds.
type Limit int

// The limits a fill can pass.
const (
	LimitSteps Limit = iota + 1
	LimitBytes
	LimitTime
)

// LimitError is a fill stopped by a limit: which, its value, and the
// innermost block it was running, in the template author's words.
type LimitError struct {
	Limit Limit
	Steps int64         // the limit's value, when Limit is LimitSteps
	Bytes int64         // when LimitBytes
	Time  time.Duration // when LimitTime
	Where string        // "in the {{#each items}} at line 3", or "at line 3"
	Line  int
}

func (e *LimitError) Is(target error) bool { return target == ErrLimit }

func (e *LimitError) Error() string {
	var what string
	switch e.Limit {
	case LimitSteps:
		what = "the template repeats more than " + thousands(e.Steps) + " steps"
	case LimitBytes:
		what = "the filled markup is over " + byteSize(e.Bytes)
	default:
		what = "filling took longer than " + e.Time.String()
	}
	if e.Where != "" {
		what += " (" + e.Where + ")"
	}
	return what
}

// thousands writes n with thousands separators: 10,000,000.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// byteSize writes a size in the largest unit that divides it: 64 MB.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
