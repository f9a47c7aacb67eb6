// Command longdoc measures how phantom's cost grows with a document's
// length: it prints a generated bank statement (a header, a long table of
// transactions whose head repeats on every page, running balances, a
// summary) at 10, 100, 1,000 and 2,000 pages, each size in a process of
// its own, and reports the pages, the wall and CPU time, the CPU per page
// and its ratio to the shortest document's, the PDF's size, and the
// process's peak memory. It renders in process with the engine alone: no
// node, no network.
//
//	go run ./bench/longdoc
//	go run ./bench/longdoc -pages 10,100,1000,2000 -runs 3
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom"
)

// rowsPerPage is about how many transactions one A4 page of the statement
// holds (measured: 52).
const rowsPerPage = 52

type result struct {
	Pages     int     `json:"pages"`
	Wall      float64 `json:"wall"`
	CPU       float64 `json:"cpu"`
	PDFBytes  int     `json:"pdfBytes"`
	PeakRSSMB float64 `json:"peakRSSMB"`
}

func main() {
	sizes := flag.String("pages", "10,100,1000,2000", "target page counts")
	runs := flag.Int("runs", 3, "runs per size (the median is reported)")
	one := flag.Int("one", 0, "internal: render one statement of about this many pages and print its figures as JSON")
	cpuprofile := flag.String("cpuprofile", "", "with -one: write a CPU profile of the render here")
	memprofile := flag.String("memprofile", "", "with -one: write a heap profile (allocations) of the render here")
	flag.Parse()
	if *one > 0 {
		if *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			check(err)
			check(pprof.StartCPUProfile(f))
			defer pprof.StopCPUProfile()
		}
		r, err := renderOne(*one)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		_ = json.NewEncoder(os.Stdout).Encode(r)
		pprof.StopCPUProfile()
		if *memprofile != "" {
			f, err := os.Create(*memprofile)
			check(err)
			check(pprof.Lookup("allocs").WriteTo(f, 0))
			check(f.Close())
		}
		return
	}
	self, err := os.Executable()
	check(err)
	fmt.Printf("%8s %7s %9s %9s %12s %9s %10s %11s\n", "target", "pages", "wall", "CPU", "CPU/page", "vs first", "PDF", "peak RSS")
	var base float64
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		check(err)
		var rs []result
		for i := 0; i < *runs; i++ {
			out, err := exec.Command(self, "-one", strconv.Itoa(n)).Output()
			if err != nil {
				msg := ""
				if ee, ok := err.(*exec.ExitError); ok {
					msg = string(ee.Stderr)
				}
				fmt.Printf("%8d failed: %v %s\n", n, err, msg)
				break
			}
			var r result
			check(json.Unmarshal(out, &r))
			rs = append(rs, r)
		}
		if len(rs) == 0 {
			continue
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].CPU < rs[j].CPU })
		r := rs[len(rs)/2]
		perPage := r.CPU / float64(r.Pages) * 1000
		if base == 0 {
			base = perPage
		}
		fmt.Printf("%8d %7d %8.2fs %8.2fs %9.2f ms %8.2fx %9.1fM %9.0f MB\n", n, r.Pages, r.Wall, r.CPU, perPage, perPage/base, float64(r.PDFBytes)/1e6, r.PeakRSSMB)
	}
}

// renderOne prints a statement of about pages pages and measures it.
func renderOne(pages int) (result, error) {
	e, err := phantom.New(phantom.Config{Workers: 1, MaxPages: render.DefaultRendererConfig().MaxPages})
	if err != nil {
		return result{}, err
	}
	m, err := render.ParseManifest([]byte(`{"pageSize":"A4","margins":{"top":"14mm","right":"14mm","bottom":"16mm","left":"14mm"}}`), "m")
	if err != nil {
		return result{}, err
	}
	g := m.Geometry()
	// Half a page of rows fewer: the header and the summary take the rest,
	// so a target of 2,000 pages stays within the page cap.
	job := render.Job{HTML: render.Document(statement(max(1, pages*rowsPerPage-rowsPerPage/2)), g, ""), Geometry: g}
	ctx, cancel := context.WithTimeout(context.Background(), render.DefaultRendererConfig().Timeout)
	defer cancel()
	var before syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	start := time.Now()
	pdf, n, err := e.RenderCounted(ctx, job)
	wall := time.Since(start)
	if err != nil {
		return result{}, err
	}
	var after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := tv(after.Utime) + tv(after.Stime) - tv(before.Utime) - tv(before.Stime)
	return result{Pages: n, Wall: wall.Seconds(), CPU: cpu, PDFBytes: len(pdf), PeakRSSMB: float64(after.Maxrss) / 1024}, nil
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// statement is a bank statement of rows transactions, written as a
// statement template is: a table with a repeated head and zebra rows.
func statement(rows int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Statement</title><style>
body { font-family: "Liberation Sans", Arial, sans-serif; font-size: 9pt; color: #222; margin: 0; }
header { display: flex; justify-content: space-between; border-bottom: 2px solid #0b5; padding-bottom: 6px; margin-bottom: 8px; }
h1 { font-size: 16pt; margin: 0; }
table { width: 100%; border-collapse: collapse; }
thead { display: table-header-group; }
th { text-align: left; background: #eef7f1; border-bottom: 1px solid #9c9; padding: 3px 4px; }
td { padding: 2px 4px; border-bottom: 1px solid #e4e4e4; }
tr:nth-child(even) td { background: #fafafa; }
td.n, th.n { text-align: right; white-space: nowrap; }
.summary { margin-top: 10px; float: right; width: 40%; }
</style></head><body>
<header><div><h1>Statement of account</h1>Account 4471-22 · Kettle &amp; Crane Ltd</div><div style="text-align:right">1 January – 31 December 2026<br>Opening balance € 12,450.00</div></header>
<table><thead><tr><th>Date</th><th>Reference</th><th>Description</th><th class="n">Debit</th><th class="n">Credit</th><th class="n">Balance</th></tr></thead><tbody>
`)
	bal := 1245000
	for i := 0; i < rows; i++ {
		amt := (i*7919)%50000 + 100
		debit, credit := "", ""
		if i%3 == 0 {
			bal += amt
			credit = money(amt)
		} else {
			bal -= amt / 2
			debit = money(amt / 2)
		}
		fmt.Fprintf(&b, "<tr><td>%02d/%02d/2026</td><td>TX-%06d</td><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
			i%28+1, i/(rows/12+1)+1, 100000+i, descriptions[i%len(descriptions)], debit, credit, money(bal))
	}
	fmt.Fprintf(&b, `</tbody></table><div class="summary"><table><tr><td>Transactions</td><td class="n">%d</td></tr><tr><td>Closing balance</td><td class="n">€ %s</td></tr></table></div></body></html>`, rows, money(bal))
	return b.String()
}

var descriptions = []string{"Card payment, Marlow Coffee Roasters", "Transfer from Ashbury Trading", "Direct debit, Thames Water", "Standing order, office rent", "Card payment, Station Stationers", "Refund, Globe Park Supplies", "Payroll run", "Interest"}

func money(cents int) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	s := strconv.Itoa(cents / 100)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	s = fmt.Sprintf("%s.%02d", s, cents%100)
	if neg {
		s = "-" + s
	}
	return s
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
