package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/pdftemplate"
)

// PDFTemplate is a version of a template made from an uploaded PDF: which of the
// upload's text pieces are fields, and what each does when its key is
// missing from a document's data.
type PDFTemplate struct {
	// SourceHash is the sha256 of the upload in the blob store; Holders
	// the nodes that held it when the template was made.
	SourceHash string
	Holders    []string
	Fields     []PDFField
}

// PDFField is one marked piece.
type PDFField struct {
	PieceID     string
	Key         string
	Default     string
	WhenMissing string // "default", "blank" or "original"
	Required    bool
	Align       string // "left", "right" or "center"
	// Text is what the piece read when the field was marked.
	Text string
}

// MaxPDFValueBytes bounds one value of a PDF template's data.
const MaxPDFValueBytes = 4 << 10

// Values checks a document's data against the fields, and returns the text
// each field's key gives it. data is a flat object whose keys are the
// fields' keys: a key no field has is refused, naming it, as is a value
// that is not text, a number or a boolean; a missing required key is
// refused naming the key. null is a missing key.
func (f *PDFTemplate) Values(data map[string]any) (map[string]string, error) {
	known := map[string]bool{}
	for _, fl := range f.Fields {
		known[fl.Key] = true
	}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[string]string{}
	for _, k := range keys {
		if !known[k] {
			return nil, fault.Payload(k, "is not a field of this template; its fields are %s", strings.Join(f.keys(), ", "))
		}
		var s string
		switch v := data[k].(type) {
		case nil:
			continue
		case string:
			s = v
		case json.Number: // decoded with UseNumber: the digits as sent
			s = v.String()
		case float64:
			s = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			s = strconv.FormatBool(v)
		default:
			return nil, fault.Payload(k, "must be text, a number or a boolean: the data of a template made from a PDF is a flat object")
		}
		if len(s) > MaxPDFValueBytes || !utf8.ValidString(s) {
			return nil, fault.Payload(k, "must be valid text of at most %d bytes", MaxPDFValueBytes)
		}
		out[k] = s
	}
	for _, fl := range f.Fields {
		if _, ok := out[fl.Key]; !ok && fl.Required {
			return nil, fault.Payload(fl.Key, "is required")
		}
	}
	return out, nil
}

func (f *PDFTemplate) keys() []string {
	var keys []string
	for _, fl := range f.Fields {
		keys = append(keys, fl.Key)
	}
	return keys
}

// Sample is data that fills every field with its default, or its key in
// capitals when it has none: what a preview without data shows.
func (f *PDFTemplate) Sample() map[string]any {
	out := map[string]any{}
	for _, fl := range f.Fields {
		if fl.Default != "" {
			out[fl.Key] = fl.Default
		} else {
			out[fl.Key] = strings.ToUpper(fl.Key)
		}
	}
	return out
}

// FieldReport is how one field was set in a document.
type FieldReport struct {
	Key     string `json:"key"`
	PieceID string `json:"pieceId"`
	// From is where the text came from: "data", "default", "blank" (the
	// original removed, nothing set) or "original" (left as printed).
	From string `json:"from"`
	// Font is the font the value was set in; Substituted says it is a
	// metric-compatible substitute for the original's, and Reason why.
	Font        string  `json:"font,omitempty"`
	Substituted bool    `json:"substituted,omitempty"`
	Reason      string  `json:"reason,omitempty"`
	Size        float64 `json:"size,omitempty"`
	Lines       int     `json:"lines,omitempty"`
}

// pdfFonts is the fonts the fields were set in, and for each substitute the
// original's font it stands for.
func pdfFonts(filled []pdftemplate.Filled) Fonts {
	f := Fonts{Used: []string{}, Substituted: []Substitution{}}
	for _, fl := range filled {
		if fl.Font == "" {
			continue
		}
		if !slices.Contains(f.Used, fl.Font) {
			f.Used = append(f.Used, fl.Font)
		}
		if fl.Substituted {
			s := Substitution{Requested: fl.Original, Used: fl.Font}
			if !slices.Contains(f.Substituted, s) {
				f.Substituted = append(f.Substituted, s)
			}
		}
	}
	sort.Strings(f.Used)
	return f
}

// fills turns checked values into the pieces to fill and the report of
// what each field takes from where.
func (f *PDFTemplate) fills(values map[string]string) ([]pdftemplate.Fill, []FieldReport) {
	var fills []pdftemplate.Fill
	report := make([]FieldReport, 0, len(f.Fields))
	for _, fl := range f.Fields {
		r := FieldReport{Key: fl.Key, PieceID: fl.PieceID, From: "data"}
		text, ok := values[fl.Key]
		if !ok {
			switch fl.WhenMissing {
			case "blank":
				r.From, text = "blank", ""
			case "original":
				r.From = "original"
			default:
				r.From, text = "default", fl.Default
			}
		}
		if r.From != "original" {
			fills = append(fills, pdftemplate.Fill{PieceID: fl.PieceID, Text: text, Align: fl.Align, Expect: fl.Text})
		}
		report = append(report, r)
	}
	return fills, report
}

// renderPDFTemplate fills an uploaded PDF's fields.
func (r *Renderer) renderPDFTemplate(ctx context.Context, req Request, sw *stopwatch, start time.Time) (Result, error) {
	tpl := req.Version.PDF
	sw.enter(StageFilling)
	values, err := tpl.Values(req.Data)
	if err != nil {
		return Result{}, err
	}
	if r.pdfTemplates == nil {
		return Result{}, fmt.Errorf("%w: this node has no PDF template engine", ErrRender)
	}
	if len(req.Source) == 0 {
		return Result{}, fmt.Errorf("%w: the template's uploaded PDF is not at hand", ErrRender)
	}
	sw.enter(StageQueued)
	release, err := r.slot(ctx, req.Queue)
	if err != nil {
		return Result{}, err
	}
	defer release()
	sw.enter(StageFilling)
	fills, report := tpl.fills(values)
	sw.rep.Engine, sw.rep.EngineReason = EnginePDFium, pdfiumReason
	sw.enter(StageRendering)
	// The fill runs on, to its end, if the time runs out first: what it
	// reads is bounded, and its PDFium instance comes back when it is done.
	budget, what := r.budget(req)
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	type filling struct {
		out    []byte
		filled []pdftemplate.Filled
		err    error
	}
	done := make(chan filling, 1)
	go func() {
		out, filled, err := r.pdfTemplates.Fill(req.Source, fills, pdftemplate.DefaultLimits)
		done <- filling{out, filled, err}
	}()
	var f filling
	select {
	case f = <-done:
	case <-ctx.Done():
		return Result{}, fmt.Errorf("%w: the %s took longer than %s to fill", ErrTimeout, what, seconds(budget))
	}
	out, filled, err := f.out, f.filled, f.err
	switch {
	case errors.Is(err, pdftemplate.ErrBusy):
		return Result{}, fmt.Errorf("%w: %v", ErrTimeout, err)
	case err != nil:
		return Result{}, fmt.Errorf("%w: %v", ErrFill, err)
	}
	byPiece := map[string]pdftemplate.Filled{}
	for _, f := range filled {
		byPiece[f.PieceID] = f
	}
	for i := range report {
		f, ok := byPiece[report[i].PieceID]
		if !ok || report[i].From == "blank" {
			continue
		}
		report[i].Font, report[i].Substituted, report[i].Size, report[i].Lines = f.Font, f.Substituted, f.Size, f.Lines
		if f.Substituted {
			report[i].Reason = f.Reason + "; set in " + f.Font + ", a metric-compatible substitute"
		}
	}
	sw.rep.Fonts = pdfFonts(filled)
	sw.enter(StageCounting)
	return r.finish(out, req.Watermark, Result{Engine: EnginePDFium, EngineReason: pdfiumReason, Report: Report{Fields: report}}, start, sw)
}
