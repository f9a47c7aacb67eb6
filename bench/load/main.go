// Command load drives a Platen node with concurrent requests for a bounded
// time and reports throughput and latency percentiles. It only sends to the
// URL it is given; point it at a node on loopback.
//
//	go run ./bench/load -url http://127.0.0.1:8080/v1 -key plt_… -c 32 -d 10s
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080/v1", "URL to call")
	method := flag.String("method", "GET", "HTTP method")
	body := flag.String("body", "", "request body (JSON); {n} in it becomes a number unique to each request")
	key := flag.String("key", os.Getenv("PLATEN_KEY"), "bearer token (PLATEN_KEY)")
	conc := flag.Int("c", 16, "concurrent clients")
	dur := flag.Duration("d", 10*time.Second, "how long to run (at most 5m)")
	flag.Parse()
	if *dur > 5*time.Minute {
		*dur = 5 * time.Minute
	}

	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *conc}}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		statuses  = map[int]int{}
		errs      int
		seq       atomic.Int64
	)
	end := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for i := 0; i < *conc; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			for time.Now().Before(end) {
				req, _ := http.NewRequest(*method, *url, bytes.NewBufferString(strings.ReplaceAll(*body, "{n}", strconv.FormatInt(seq.Add(1), 10))))
				if *key != "" {
					req.Header.Set("Authorization", "Bearer "+*key)
				}
				req.Header.Set("Content-Type", "application/json")
				start := time.Now()
				res, err := client.Do(req)
				if err != nil {
					mu.Lock()
					errs++
					mu.Unlock()
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				local = append(local, time.Since(start))
				mu.Lock()
				statuses[res.StatusCode]++
				mu.Unlock()
			}
			mu.Lock()
			latencies = append(latencies, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[int(p*float64(len(latencies)-1))]
	}
	fmt.Printf("%s %s, %d clients, %s\n", *method, *url, *conc, *dur)
	fmt.Printf("requests %d (%.0f/s), transport errors %d, statuses %v\n", len(latencies), float64(len(latencies))/dur.Seconds(), errs, statuses)
	fmt.Printf("latency p50 %s p90 %s p99 %s max %s\n", pct(0.5), pct(0.9), pct(0.99), pct(1))
}
