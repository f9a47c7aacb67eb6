package node_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/platen/platen/internal/crash"
	"github.com/platen/platen/internal/testnode"
	"github.com/platen/platen/internal/tier"
)

// TestKill9AtEveryStepOfADocumentRecordedOnce kills the node (SIGKILL, at
// a crash point of a binary built with them) at each step of a document
// its caller waits for, which is recorded in one command once rendered:
// reserved, rendered, its command in the log but not applied, applied but
// not answered. The caller is never answered. After a restart on the same
// folder, a document whose command reached the log is there, completed,
// with its file, charged once, its hold released; one whose command did
// not is not there and cost nothing; and a retry with the same
// Idempotency-Key answers with the first or makes one, charged once.
func TestKill9AtEveryStepOfADocumentRecordedOnce(t *testing.T) {
	tier.Full(t, "kills node processes at each step of a document's one write")
	for _, point := range []string{crash.Reserved, crash.Rendered, crash.Applying, crash.Recorded} {
		t.Run(point, func(t *testing.T) {
			dir := t.TempDir()
			httpAddr, raftAddr := testnode.FreeAddr(t), testnode.FreeAddr(t)
			args := []string{"serve", "--data-dir", dir, "--http", httpAddr, "--raft", raftAddr}
			p := startProc(t, dir, httpAddr, raftAddr)
			testnode.Do(t, "PUT", p.url+"/admin/v1/plans/starter", opToken, map[string]any{"monthlyPages": 0, "pageRateMicros": 1000})
			org := testnode.DataAs[testnode.Org](t, testnode.Do(t, "POST", p.url+"/admin/v1/orgs", opToken, map[string]any{"name": "Paid", "plan": "starter"})).ID
			testnode.Do(t, "POST", p.url+"/admin/v1/orgs/"+org+"/wallet/credit", opToken, map[string]any{"amountMicros": 1000000, "reference": "topup"})
			key := testnode.DataAs[testnode.Key](t, testnode.Do(t, "POST", p.url+"/admin/v1/orgs/"+org+"/keys", opToken,
				map[string]any{"name": "k", "scopes": []string{"documents.generate", "documents.read", "templates.write"}})).Key
			if r := testnode.Do(t, "POST", p.url+"/v1/templates", key, map[string]any{"name": "Note", "slug": "note",
				"html": `<html><body><div class="sheet" style="padding:20mm"><h1>Note {{n}}</h1></div></body></html>`}); r.Status != 201 {
				t.Fatalf("template: %s", r)
			}
			p.cmd.Process.Signal(syscall.SIGTERM)
			p.wait(t, 30*time.Second)

			p = launchWith(t, binary, []string{"PLATEN_CRASH_AT=" + point}, httpAddr, 30*time.Second, args...)
			body := `{"templateId":"note","data":{"n":1},"wait":true}`
			post := func() (*http.Response, error) {
				req, _ := http.NewRequest("POST", p.url+"/v1/documents", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+key)
				req.Header.Set("Idempotency-Key", "order-1")
				return (&http.Client{Timeout: 60 * time.Second}).Do(req)
			}
			if res, err := post(); err == nil {
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				t.Fatalf("the node answered at %s, where it should have died: HTTP %d %s", point, res.StatusCode, b)
			}
			if err := p.wait(t, 30*time.Second); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("the node did not die by SIGKILL at %s: %v", point, err)
			}

			p = startProc(t, dir, httpAddr, raftAddr)
			docs := testnode.DataAs[testnode.List[testnode.Document]](t, testnode.Do(t, "GET", p.url+"/v1/documents", key, nil)).Items
			l := testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", p.url+"/admin/v1/orgs/"+org+"/ledger", opToken, nil))
			logged := point == crash.Applying || point == crash.Recorded
			if l.HeldMicros != 0 || l.HeldPages != 0 {
				t.Fatalf("a hold outlived the crash: %+v", l)
			}
			var first string
			if logged {
				if len(docs) != 1 || docs[0].Status != "completed" || docs[0].PageCount != 1 {
					t.Fatalf("the document whose command was in the log is not there, completed: %+v", docs)
				}
				first = docs[0].ID
				if l.BalanceMicros != 999000 || len(l.Items) != 2 || l.Items[1].Reference != first {
					t.Fatalf("not charged once: %+v", l)
				}
				checkPDF(t, p.url, key, first)
			} else if len(docs) != 0 || l.BalanceMicros != 1000000 || len(l.Items) != 1 {
				t.Fatalf("a document never recorded left a trace: %+v %+v", docs, l)
			}

			// The caller, never answered, tries again with the same key.
			res, err := post()
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			r := testnode.Response{Status: res.StatusCode, Body: raw}
			json.Unmarshal(raw, &r.JSON)
			d := testnode.DataAs[testnode.Document](t, r)
			if d.Status != "completed" || (logged && d.ID != first) || (!logged && (res.StatusCode != 201 || d.ID == "")) {
				t.Fatalf("the retry at %s: %s", point, r)
			}
			checkPDF(t, p.url, key, d.ID)
			l = testnode.DataAs[testnode.Ledger](t, testnode.Do(t, "GET", p.url+"/admin/v1/orgs/"+org+"/ledger", opToken, nil))
			if l.BalanceMicros != 999000 || len(l.Items) != 2 || l.HeldMicros != 0 {
				t.Fatalf("after the retry, not charged exactly once: %+v", l)
			}
		})
	}
}

// checkPDF downloads a document's file and checks it is a PDF.
func checkPDF(t *testing.T, url, key, id string) {
	t.Helper()
	r := testnode.Do(t, "GET", url+"/v1/documents/"+id+"/download", key, nil)
	link := testnode.DataAs[struct {
		URL       string    `json:"url"`
		ExpiresAt time.Time `json:"expiresAt"`
	}](t, r).URL
	if link == "" {
		t.Fatalf("no download link: %s", r)
	}
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	pdf, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf, []byte("%%EOF")) {
		t.Fatalf("document %s's file: HTTP %d, %d bytes %q", id, res.StatusCode, len(pdf), fmt.Sprint(pdf[:min(len(pdf), 16)]))
	}
}
