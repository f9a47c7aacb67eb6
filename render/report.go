package render

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"time"
)

// Report is what a render says about itself (docs/api.md "Render report"):
// the engine and why, the fonts used and substituted, the assets that did
// not load, the time each stage took, and the PDF's size and sha256. Every
// document record carries one once its render has ended, and a dry run
// answers with one. Fonts and FailedAssets are never null, so that a
// reader can rely on them being lists.
type Report struct {
	Engine       string        `json:"engine,omitempty"`
	EngineReason string        `json:"engineReason,omitempty"`
	Fonts        Fonts         `json:"fonts"`
	FailedAssets []FailedAsset `json:"failedAssets"`
	// Ms is milliseconds by stage (the Stage constants). A failed render's
	// has the stages up to the one it failed at.
	Ms Timings `json:"ms"`
	// Bytes and SHA256 describe the finished PDF, when one was made.
	Bytes  int64  `json:"bytes,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// FailedAt is the stage a failed render stopped at.
	FailedAt string `json:"failedAt,omitempty"`
	// Fields is how the fields of a template made from a PDF were set.
	Fields []FieldReport `json:"fields,omitempty"`
	// Conformance is the checks made on a PDF/A or e-invoice document.
	Conformance *Conformance `json:"conformance,omitempty"`

	// spent is each stage's time before rounding, so that many short
	// spells add up to what they took.
	spent map[string]time.Duration
}

// Fonts is the fonts of a document: the faces the PDF uses, by family,
// and each family the document asked for that was printed in another.
type Fonts struct {
	Used        []string       `json:"used"`
	Substituted []Substitution `json:"substituted"`
}

// Substitution is a family asked for and the one printed in its place.
type Substitution struct {
	Requested string `json:"requested"`
	Used      string `json:"used"`
}

// FailedAsset is an image, font or style sheet the document refers to that
// was not loaded, and why.
type FailedAsset struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// The stages of a document, in order. A render's report times filling,
// rendering (printing, and stamping a watermark) and counting (pages, size
// and sha256); the document actor adds queued (from the record's creation
// to the render's start, the renderer's own queue included) and storing
// (the blob store and its copy to a second node).
const (
	StageQueued    = "queued"
	StageFilling   = "filling"
	StageRendering = "rendering"
	StageCounting  = "counting"
	StageSigning   = "signing"
	StageStoring   = "storing"
)

// Stages lists the stages in order.
var Stages = []string{StageQueued, StageFilling, StageRendering, StageCounting, StageSigning, StageStoring}

// Timings is milliseconds by stage. It is written in the stages' order,
// queued first, as a reader expects to see them.
type Timings map[string]int64

// MarshalJSON writes the stages in order, then any other key sorted.
func (t Timings) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	put := func(k string, v int64) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, v, 10)
	}
	for _, s := range Stages {
		if v, ok := t[s]; ok {
			put(s, v)
		}
	}
	var rest []string
	for k := range t {
		if !slices.Contains(Stages, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		put(k, t[k])
	}
	return append(b, '}'), nil
}

// NewReport returns an empty report: empty lists, no stage timed.
func NewReport() Report {
	return Report{Fonts: Fonts{Used: []string{}, Substituted: []Substitution{}}, FailedAssets: []FailedAsset{}, Ms: Timings{}}
}

// Add adds d to stage's time.
func (r *Report) Add(stage string, d time.Duration) {
	if r.Ms == nil {
		r.Ms = Timings{}
	}
	if r.spent == nil {
		r.spent = map[string]time.Duration{}
		for s, ms := range r.Ms {
			r.spent[s] = time.Duration(ms) * time.Millisecond
		}
	}
	r.spent[stage] += d
	r.Ms[stage] = r.spent[stage].Milliseconds()
}

// found takes an engine's findings, keeping the lists non-nil.
func (r *Report) found(f *Findings) {
	if f.Fonts.Used != nil {
		r.Fonts.Used = f.Fonts.Used
	}
	if f.Fonts.Substituted != nil {
		r.Fonts.Substituted = f.Fonts.Substituted
	}
	if f.FailedAssets != nil {
		r.FailedAssets = f.FailedAssets
	}
}

// Output records the finished PDF's size and sha256.
func (r *Report) Output(pdf []byte) {
	sum := sha256.Sum256(pdf)
	r.Bytes, r.SHA256 = int64(len(pdf)), hex.EncodeToString(sum[:])
}

// Failed records the stage a render stopped at, and sets every stage before
// it that has no time yet to zero, so that its ms names the stages up to it.
func (r *Report) Failed(stage string) {
	r.FailedAt = stage
	r.through(stage)
}

// Completed sets every stage that has no time yet to zero.
func (r *Report) Completed() { r.through(StageStoring) }

func (r *Report) through(stage string) {
	if r.Ms == nil {
		r.Ms = Timings{}
	}
	last := slices.Index(Stages, stage)
	for i, s := range Stages {
		// Only a signed document has a signing stage.
		if _, ok := r.Ms[s]; !ok && i <= last && s != StageSigning {
			r.Ms[s] = 0
		}
	}
	for i, s := range Stages {
		if i > last {
			delete(r.Ms, s)
		}
	}
}

// stopwatch times a render's stages into a report: each enter ends the
// stage before it.
type stopwatch struct {
	rep   *Report
	stage string
	at    time.Time
}

func (s *stopwatch) enter(stage string) {
	now := time.Now()
	if s.stage != "" {
		s.rep.Add(s.stage, now.Sub(s.at))
	}
	s.stage, s.at = stage, now
}

// stop ends the current stage and returns it.
func (s *stopwatch) stop() string {
	stage := s.stage
	s.enter("")
	return stage
}
