package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// errHelp is returned by a command whose help was asked for and printed:
// main exits 0.
var errHelp = errors.New("help printed")

// parseFlags parses fs from args, flags before, between or after the
// positional arguments, which it returns. -h and --help print usage and the
// flags to out and return errHelp.
func parseFlags(fs *flag.FlagSet, usage string, args []string, out io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(out, strings.TrimRight(usage, "\n")+"\n")
			hasFlags := false
			fs.VisitAll(func(*flag.Flag) { hasFlags = true })
			if hasFlags {
				fmt.Fprint(out, "\nFlags:\n")
				fs.SetOutput(out)
				fs.PrintDefaults()
			}
			return nil, errHelp
		}
		if err != nil {
			first, _, _ := strings.Cut(strings.TrimSpace(usage), "\n")
			return nil, fmt.Errorf("%v; %s (-h for help)", err, strings.TrimPrefix(first, "Usage: "))
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		args = fs.Args()
		if args[0] == "-" { // standard input, a positional argument
			pos = append(pos, "-")
			args = args[1:]
			continue
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// usageError is the command's usage line as an error.
func usageError(usage string) error {
	first, _, _ := strings.Cut(strings.TrimSpace(usage), "\n")
	return fmt.Errorf("usage: %s", strings.TrimPrefix(first, "Usage: "))
}

// printJSON prints v indented, for --json.
func printJSON(out io.Writer, v any) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, string(raw))
	return err
}

// table prints rows under a header, aligned in columns.
func table(out io.Writer, header []string, rows [][]string) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

// fields prints name: value lines aligned, skipping empty values.
func fields(out io.Writer, kv ...string) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		fmt.Fprintf(tw, "%s:\t%s\n", kv[i], kv[i+1])
	}
	tw.Flush()
}

// when is a time for a table: UTC to the second, or "" for none.
func when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// whenPtr is when of an optional time.
func whenPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return when(*t)
}

// micros shows an amount in micro-units as units with six decimals.
func micros(m int64) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("%s%d.%06d", sign, m/1_000_000, m%1_000_000)
}

// orDash is s, or "-" when empty, for a table cell.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// plural is n and the noun, with an s unless n is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
