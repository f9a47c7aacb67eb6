package client_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/platen/platen/client"
	"github.com/platen/platen/internal/testnode"
)

// exampleTB is the testing.TB testnode.Start needs, for examples, which
// have none: a failure panics, cleanups run at stop.
type exampleTB struct {
	testing.TB
	cleanups []func()
	dirs     []string
}

func (e *exampleTB) Helper()                           {}
func (e *exampleTB) Cleanup(f func())                  { e.cleanups = append(e.cleanups, f) }
func (e *exampleTB) Fatal(args ...any)                 { panic(fmt.Sprint(args...)) }
func (e *exampleTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (e *exampleTB) Errorf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (e *exampleTB) Logf(string, ...any)               {}
func (e *exampleTB) TempDir() string {
	d, err := os.MkdirTemp("", "platen-example-")
	if err != nil {
		panic(err)
	}
	e.dirs = append(e.dirs, d)
	return d
}

// startExampleNode starts a node on loopback with a template "receipt"
// (data: a required string "number" and a number "amount") and returns its
// address, a key with every scope, and what stops it.
func startExampleNode() (baseURL, apiKey string, stop func()) {
	tb := &exampleTB{}
	n := testnode.Start(tb, nil)
	stop = func() {
		for i := len(tb.cleanups) - 1; i >= 0; i-- {
			tb.cleanups[i]()
		}
		for _, d := range tb.dirs {
			os.RemoveAll(d)
		}
	}
	c := client.New(n.URL, n.Key)
	_, err := c.Templates.Create(context.Background(), client.CreateTemplateRequest{
		Name: "Receipt", Slug: "receipt",
		VersionSource: client.VersionSource{
			HTML:       "<h1>Receipt {{number}}</h1><p>Paid: {{amount}}</p>",
			Manifest:   []byte(`{"dataSchema": {"number": {"type": "string", "required": true}, "amount": {"type": "number"}}}`),
			SampleData: []byte(`{"number": "R-1", "amount": 12.5}`),
		},
	})
	if err != nil {
		stop()
		panic(err)
	}
	return n.URL, n.Key, stop
}
