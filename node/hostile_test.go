package node_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platen/platen/internal/hostile"
	"github.com/platen/platen/internal/leak"
	"github.com/platen/platen/internal/pdfbomb"
	"github.com/platen/platen/internal/poll"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
)

// TestHostileInputEndsWithItsRefusal sends, as one organisation's key
// holder, each input of issue 24 that used to spend a node's CPU and memory
// past its refusal, while a second organisation makes a small document
// every second. For each it checks the refusal's code and words, that no
// answer carries internal detail, and that the node's process tree (the
// node and the Chromium it started) is idle again within 2 s of the
// refusal. At the end the node's RSS is within 100 MB of what it was before
// the first input, and every document of the second organisation completed,
// none starved (bystanderBound).
func TestHostileInputEndsWithItsRefusal(t *testing.T) {
	tier.Full(t, "runs a node process and sends it hostile input")
	// A node without the race detector: its CPU and memory are what is
	// measured.
	httpAddr := testnode.FreeAddr(t)
	p := launchBinary(t, plain(t), httpAddr, 30*time.Second, "serve", "--data-dir", t.TempDir(), "--http", httpAddr, "--raft", testnode.FreeAddr(t))
	pid := p.cmd.Process.Pid
	attacker := regexp.MustCompile(`(?m)^\s+(plt_[A-Za-z0-9]{43})$`).FindStringSubmatch(p.stdout.String())[1]

	// The attacker's own template, whose draft previews carry the loops.
	if r := testnode.Do(t, "POST", p.url+"/v1/templates", attacker, map[string]any{"name": "Scratch", "slug": "scratch", "html": "<p>{{title}}</p>"}); r.Status != 201 {
		t.Fatal(r)
	}
	by := newBystander(t, p.url)

	// Warm up what the inputs exercise, so that the RSS before counts the
	// engines, the PDF readers and the template caches.
	by.generate("phantom")
	by.generate("chromium")
	if r := testnode.Upload(t, p.url+"/v1/templates/pdf", attacker, "small.pdf", pdfbomb.OnePage("", "", pdfbomb.PlainPage), map[string]string{"name": "Small", "slug": "small"}); r.Status != 201 {
		t.Fatalf("an ordinary PDF upload: %s", r)
	}
	rssBefore := rss(t, pid)
	go by.run()

	preview := func(html string, data map[string]any) func() []testnode.Response {
		return func() []testnode.Response {
			return concurrently(4, func() testnode.Response {
				return testnode.Do(t, "POST", p.url+"/v1/templates/scratch/preview", attacker, map[string]any{
					"draft": map[string]any{"html": html, "manifest": map[string]any{"engine": "phantom"}, "sampleData": data}})
			})
		}
	}
	upload := func(name string, pdf []byte) func() []testnode.Response {
		return func() []testnode.Response {
			return []testnode.Response{testnode.Upload(t, p.url+"/v1/templates/pdf", attacker, name+".pdf", pdf, map[string]string{"name": name, "slug": name})}
		}
	}
	document := func(engine, html string, data map[string]any) func() []testnode.Response {
		return func() []testnode.Response {
			slug := "doc-" + engine + fmt.Sprint(len(html))
			if r := testnode.Do(t, "POST", p.url+"/v1/templates", attacker, map[string]any{"name": slug, "slug": slug, "html": html,
				"manifest": map[string]any{"engine": engine}}); r.Status != 201 {
				t.Fatalf("template %s: %s", slug, r)
			}
			by.alsoChromium(true)
			defer by.alsoChromium(false)
			return concurrently(2, func() testnode.Response {
				return testnode.Do(t, "POST", p.url+"/v1/documents", attacker, map[string]any{"templateId": slug, "data": data})
			})
		}
	}
	save := func(html string) func() []testnode.Response {
		return func() []testnode.Response {
			return []testnode.Response{testnode.Do(t, "POST", p.url+"/v1/templates/scratch/versions", attacker, map[string]any{"html": html})}
		}
	}
	items := map[string]any{"items": hostile.Items(1000)}
	pages := map[string]any{"items": hostile.Items(10000)}
	for _, c := range []struct {
		name  string
		send  func() []testnode.Response
		code  string // the refusal's code, or a failed document's errorCode
		words *regexp.Regexp
	}{
		{"triple loop without output", preview(hostile.TripleLoop(false), items), "INVALID_REQUEST", regexp.MustCompile(`too costly.*(repeats more than 2,000,000 steps|filling took longer than 5s)`)},
		{"triple loop with output", preview(hostile.TripleLoop(true), items), "INVALID_REQUEST", regexp.MustCompile(`too costly.*(repeats more than 2,000,000 steps|markup is over 64 MB|filling took longer than 5s)`)},
		{"PDF inflating to 1 GiB", upload("bomb", pdfbomb.FlateContent(1<<30)), "PDF_TOO_COMPLEX", regexp.MustCompile(`content is more than 32 MB`)},
		{"dictionary nested 1,000,000 deep", upload("dicts", pdfbomb.NestedDicts(1_000_000)), "PDF_TOO_COMPLEX", regexp.MustCompile(`nested more than 100 deep`)},
		{"arrays nested 1,000,000 deep", upload("arrays", pdfbomb.NestedArrays(1_000_000)), "PDF_TOO_COMPLEX", regexp.MustCompile(`nested more than 100 deep`)},
		{"a 1e12 px box on chromium", document("chromium", hostile.HugeBox("1000000000000"), nil), "TOO_MANY_PAGES", regexp.MustCompile(`more than 2,000 pages: an element \(div\) is 8,878 m tall`)},
		{"10,000 pages on chromium", document("chromium", hostile.ManyPages(), pages), "TOO_MANY_PAGES", regexp.MustCompile(`more than 2,000 pages`)},
		{"10,000 pages on phantom", document("phantom", hostile.ManyPages(), pages), "TOO_MANY_PAGES", regexp.MustCompile(`more than 2,000 pages`)},
		{"a 0 mm @page", save(hostile.PageSize("0mm 0mm")), "INVALID_REQUEST", regexp.MustCompile(`@page \{ size: 0mm 0mm \}.*between 20mm and 2000mm`)},
		{"a 100 m @page", save(hostile.PageSize("100000mm 100000mm")), "INVALID_REQUEST", regexp.MustCompile(`between 20mm and 2000mm`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			answers := c.send()
			refused := time.Now()
			for _, r := range answers {
				code, msg := refusal(t, r)
				if code != c.code || !c.words.MatchString(msg) {
					t.Errorf("refused with %s %q; want %s with words matching %s\n%s", code, msg, c.code, c.words, r)
				}
				if kind := leak.Find(string(r.Body)); kind != "" {
					t.Errorf("the answer carries %s: %s", kind, r.Body)
				}
			}
			idle, rate := untilIdle(t, pid, refused)
			t.Logf("RSS %d MB; %s", rss(t, pid)>>20, heapOf(t, p.url))
			t.Logf("refused: %s; the node's process tree was idle %s after the refusal (%.0f %% of a core)", answers[0].Code()+answers[0].Message(), idle.Round(10*time.Millisecond), rate*100)
			if idle > 2*time.Second {
				t.Errorf("the node's process tree still used %.0f %% of a core %s after the refusal", rate*100, idle.Round(10*time.Millisecond))
			}
		})
	}

	by.stop()
	// Memory that Go's scavenger has not yet returned is counted: the limits
	// must keep the peaks small, not only the heap after a collection.
	var after int64
	poll.Until(t, 30*time.Second, func() error {
		if after = rss(t, pid); after-rssBefore > 100<<20 {
			return fmt.Errorf("RSS %d MB, %d MB before the first input", after>>20, rssBefore>>20)
		}
		return nil
	})
	t.Logf("the node's RSS: %d MB before the inputs, %d MB after", rssBefore>>20, after>>20)
	by.check(t)
}

// refusal reads a refusal's code and words: an error envelope's, or those
// of a document that failed.
func refusal(t *testing.T, r testnode.Response) (code, msg string) {
	t.Helper()
	if r.Status == 201 || r.Status == 202 {
		d := testnode.DataAs[testnode.Document](t, r)
		if d.Status != "failed" {
			t.Fatalf("not refused: %s", r)
		}
		return d.ErrorCode, d.Message
	}
	return r.Code(), r.Message()
}

// concurrently sends n copies of one request at once, as an attacker
// would, and returns every answer.
func concurrently(n int, send func() testnode.Response) []testnode.Response {
	out := make([]testnode.Response, n)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = send()
		}()
	}
	wg.Wait()
	return out
}

// untilIdle samples the CPU time of pid and its descendants every 100 ms and
// returns how long after since a window of 500 ms began in which they used
// under 15 % of a core, and the rate in that window (or in the last one, if
// none came within 3 s).
func untilIdle(t *testing.T, pid int, since time.Time) (time.Duration, float64) {
	t.Helper()
	type sample struct {
		at  time.Time
		cpu time.Duration
	}
	var samples []sample
	for {
		samples = append(samples, sample{time.Now(), treeCPU(t, pid)})
		last := samples[len(samples)-1]
		for _, s := range samples {
			// A process that ended (a Chromium renderer replaced) takes its
			// time out of the sum: such a window says nothing.
			if w := last.at.Sub(s.at); w >= 500*time.Millisecond && w < 700*time.Millisecond && last.cpu >= s.cpu {
				rate := float64(last.cpu-s.cpu) / float64(w)
				if rate < 0.15 || s.at.Sub(since) > 3*time.Second {
					return max(s.at.Sub(since), 0), rate
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// clockTick is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on
// Linux everywhere Go runs).
const clockTick = 10 * time.Millisecond

// treeCPU is the user and system CPU time of pid and every process under it
// (the Chromium the node started), read from /proc.
func treeCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, path := range stats {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue // ended since the listing
		}
		// The fields after the command name, which may hold spaces and ")".
		f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
		if len(f) < 13 {
			continue
		}
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		parent[p], _ = strconv.Atoi(f[1])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks[p] = ut + st
	}
	var total int64
	for p := range ticks {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				total += ticks[p]
				break
			}
		}
	}
	return time.Duration(total) * clockTick
}

// rss is the resident memory of pid, in bytes.
func rss(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^VmRSS:\s+(\d+) kB`).FindSubmatch(raw)
	if m == nil {
		t.Fatalf("no VmRSS in /proc/%d/status", pid)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// bystander is a second organisation making a small document every second
// on phantom, and one on chromium too while the attacker holds Chromium.
type bystander struct {
	url, key string
	client   *http.Client
	done     chan struct{}
	finished chan struct{}

	mu       sync.Mutex // guards the fields below
	chromium bool
	took     []time.Duration
	failures []string
}

func newBystander(t *testing.T, url string) *bystander {
	t.Helper()
	org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", url+"/admin/v1/orgs", opToken, map[string]any{"name": "Bystander", "plan": "growth"})).ID
	key := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", url+"/admin/v1/orgs/"+org+"/keys", opToken, map[string]any{"name": "b", "scopes": []string{"documents.generate", "templates.write"}})).Key
	if r := testnode.Do(t, "POST", url+"/v1/templates", key, map[string]any{"name": "Receipt", "slug": "receipt",
		"html": `<html><body><div style="padding:20mm"><h1>Receipt {{n}}</h1><p>Thank you.</p></div></body></html>`}); r.Status != 201 {
		t.Fatal(r)
	}
	return &bystander{url: url, key: key, client: &http.Client{Timeout: 30 * time.Second}, done: make(chan struct{}), finished: make(chan struct{})}
}

// generate makes one document on engine and records how long it took, or
// why it failed.
func (b *bystander) generate(engine string) {
	body, _ := json.Marshal(map[string]any{"templateId": "receipt", "engine": engine, "data": map[string]any{"n": 1}})
	start := time.Now()
	r, err := postAs(b.client, b.key, b.url+"/v1/documents", string(body))
	took := time.Since(start)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case err != nil:
		b.failures = append(b.failures, fmt.Sprintf("%s: %v", engine, err))
	case r.Status != 201 || r.Data()["status"] != "completed":
		b.failures = append(b.failures, fmt.Sprintf("%s: %s", engine, r))
	case took > bystanderBound:
		b.failures = append(b.failures, fmt.Sprintf("%s: completed in %s", engine, took.Round(time.Millisecond)))
	}
	b.took = append(b.took, took)
}

func (b *bystander) alsoChromium(on bool) {
	b.mu.Lock()
	b.chromium = on
	b.mu.Unlock()
}

// run makes a document a second until stop.
func (b *bystander) run() {
	defer close(b.finished)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-tick.C:
		}
		var wg sync.WaitGroup
		engines := []string{"phantom"}
		b.mu.Lock()
		if b.chromium {
			engines = append(engines, "chromium")
		}
		b.mu.Unlock()
		for _, e := range engines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b.generate(e)
			}()
		}
		wg.Wait()
	}
}

func (b *bystander) stop() {
	close(b.done)
	<-b.finished
}

// bystanderBound is how long a bystander's document may take: far above
// its usual tens of milliseconds, far below the 60 s render budget an
// attacker could otherwise hold it for. A Chromium document made while the
// attacker's Chromium document is being refused waits for it, about 2 s on
// a 2-core machine (measured 2.07 to 2.66 s, at this commit and at the one
// before this session's changes), so a tighter bound measures the machine,
// not the node; the spread is logged.
const bystanderBound = 10 * time.Second

// check fails the test for every document of the bystander's that failed
// or took over bystanderBound, and logs the spread of the times.
func (b *bystander) check(t *testing.T) {
	t.Helper()
	for _, f := range b.failures {
		t.Errorf("the second organisation's document: %s", f)
	}
	if len(b.took) < 10 {
		t.Fatalf("the second organisation made only %d documents", len(b.took))
	}
	t.Logf("the second organisation's %d documents took %s (min / median / max)", len(b.took), spread(b.took))
}

// heapOf reads the node's Go heap from its metrics, to tell memory the
// heap holds from memory the process holds outside it.
func heapOf(t *testing.T, url string) string {
	t.Helper()
	r := testnode.Do(t, "GET", url+"/metrics", "", nil)
	var out []string
	for _, m := range []string{"go_memstats_heap_inuse_bytes", "go_memstats_heap_idle_bytes", "go_memstats_heap_released_bytes", "go_memstats_sys_bytes"} {
		if v := regexp.MustCompile(`(?m)^` + m + ` (\S+)$`).FindSubmatch(r.Body); v != nil {
			f, _ := strconv.ParseFloat(string(v[1]), 64)
			out = append(out, fmt.Sprintf("%s %d MB", strings.TrimPrefix(m, "go_memstats_"), int64(f)>>20))
		}
	}
	return strings.Join(out, ", ")
}
