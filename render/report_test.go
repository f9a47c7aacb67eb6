package render

import (
	"encoding/json"
	"testing"
	"time"
)

// TestReportStages: a failed render's ms has the stages up to the one it
// failed at, in order; a completed one every stage.
func TestReportStages(t *testing.T) {
	r := NewReport()
	r.Add(StageFilling, 1500*time.Microsecond)
	r.Add(StageFilling, 600*time.Microsecond) // short spells add up before rounding
	r.Add(StageQueued, 3*time.Millisecond)
	r.Failed(StageRendering)
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fonts":{"used":[],"substituted":[]},"failedAssets":[],"ms":{"queued":3,"filling":2,"rendering":0},"failedAt":"rendering"}`
	if string(raw) != want {
		t.Fatalf("got  %s\nwant %s", raw, want)
	}
	r = NewReport()
	r.Output([]byte("%PDF"))
	r.Completed()
	raw, _ = json.Marshal(r)
	want = `{"fonts":{"used":[],"substituted":[]},"failedAssets":[],"ms":{"queued":0,"filling":0,"rendering":0,"counting":0,"storing":0},"bytes":4,"sha256":"315d429b7714cedb6ad04ac31240145257692630457f3c88253c5beceac76027"}`
	if string(raw) != want {
		t.Fatalf("got  %s\nwant %s", raw, want)
	}
	var back Report
	if err := json.Unmarshal(raw, &back); err != nil || len(back.Ms) != 5 || back.Bytes != 4 {
		t.Fatalf("%s does not read back: %v", raw, err)
	}
}

// TestFindingsKeepURLsShortAndOnce: a data: URI is cut, a URL given twice is
// listed once.
func TestFindingsKeepURLsShortAndOnce(t *testing.T) {
	var f Findings
	long := "data:image/png;base64," + string(make([]byte, 500))
	f.AddFailedAsset(long, ReasonUndecodable)
	f.AddFailedAsset(long, ReasonUndecodable)
	f.AddFailedAsset("https://x.example/a.png", ReasonNotFetched)
	if len(f.FailedAssets) != 2 || len(f.FailedAssets[0].URL) > 64+len("…") {
		t.Fatalf("%+v", f.FailedAssets)
	}
}
