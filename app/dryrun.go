package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/render"
	"github.com/platen/platen/storage"
)

// Quote is the answer of a dry run (docs/api.md "Dry run"): the document a
// request would make now, and what it would cost.
type Quote struct {
	// PageCount is the rendered document's pages.
	PageCount int
	// AllowancePages and WalletMicros are what billing.Charge would take for
	// PageCount pages now: the charge of the same request made for real
	// next, had nothing else changed the account in between.
	AllowancePages int64
	WalletMicros   int64
	// Payable says the pages are covered now (billing.Hold of PageCount
	// succeeds). A quote that is not payable is a request that would be
	// accepted (its estimate fits) and would overrun the allowance or take
	// the wallet below zero.
	Payable bool
	// Report is the render's report; nothing is stored, so nothing is
	// queued or stored (ms.queued and ms.storing are 0).
	Report render.Report
}

// dryRun answers a checked request with a Quote and changes nothing: no
// document, event, ledger row or Idempotency-Key is recorded. It refuses as
// the real request would before rendering (prepare's checks, then the
// Idempotency-Key's record, then the organisation's hold on the same
// account state, asked of its actor). A key already used with the same body
// (dryRun aside: canonicalHash) quotes the replay the real request would
// be: the first document's pages (rendered to count while it has none),
// nothing charged, payable. It renders here, synchronously, as the document's actor would: the same
// version, data, engine choice and watermark, within a preview's budget
// (someone waits for the answer). A render that fails is
// answered as the error (422 RENDER_FAILED). Its render takes a place in
// the renderer's bounded queue without waiting for one, as a preview does:
// a full queue is 503 OVERLOADED.
func (a *App) dryRun(ctx context.Context, orgID string, p prepared) (Quote, error) {
	d := p.create.Document
	ask := actors.QuoteDocument{TemplateID: d.TemplateID, TemplateVersion: d.TemplateVersion, EstimatePages: p.create.EstimatePages,
		IdempotencyKey: p.create.IdempotencyKey, BodyHash: p.create.BodyHash}
	first, err := actors.Ask(a.deps.Actors, orgID, ask)
	if err != nil {
		return Quote{}, err
	}
	replay := first.Replay
	data, err := actors.DecodeData(p.version, p.create.Data)
	if err != nil {
		return Quote{}, fmt.Errorf("%w: data: %v", fault.ErrInvalid, err)
	}
	req := render.Request{Version: p.version, Data: data, Engine: d.Engine, PDFA: d.PDFA, PDFUA: d.PDFUA, Now: a.deps.Clock.Now().UTC(),
		CacheKey: actors.VersionKey(d.TemplateID, d.TemplateVersion),
		Preview:  true, Org: orgID, OrgPages: actors.OrgPages(a.deps.Store, orgID)}
	if err := a.deps.Actors.LoadSource(&req); err != nil {
		return Quote{}, err
	}
	if first.Watermarked {
		req.Watermark = actors.SandboxWatermark()
	}
	res, err := a.deps.Renderer.Render(ctx, req)
	if err != nil {
		return Quote{}, renderRefusal(orgID, err, res.Report.Engine)
	}
	rep := res.Report
	rep.Ms[render.StageQueued] = 0
	rep.Completed()
	if replay != nil {
		// The real request would answer the first document again and
		// charge nothing more: its pages, once it has them.
		pages := res.Pages
		if replay.Status == storage.StatusCompleted && replay.PageCount > 0 {
			pages = replay.PageCount
		}
		return Quote{PageCount: pages, Payable: true, Report: rep}, nil
	}
	ask.Pages = res.Pages
	q, err := actors.Ask(a.deps.Actors, orgID, ask)
	if err != nil {
		return Quote{}, err
	}
	return Quote{PageCount: res.Pages, AllowancePages: q.AllowancePages, WalletMicros: q.WalletMicros, Payable: q.Payable, Report: rep}, nil
}

// renderRefusal is a failed render answered to its caller (a dry run, a
// preview) as the caller is told it: an engine's failure with what failed
// and what to change (engineRefusals), still render.ErrRender, so that the
// engine's own error (the browser's output, the node's paths) reaches the
// log and not the API; the data's and the limits' refusals (ErrFill,
// ErrTimeout, ErrTooManyPages) are the caller's to read, as they are.
// A preview or a dry run makes no document, so unlike a document's failure
// (actors.Failure) the words quote no id.
func renderRefusal(orgID string, err error, engine string) error {
	if !errors.Is(err, render.ErrRender) || errors.Is(err, render.ErrFill) || errors.Is(err, render.ErrTimeout) || errors.Is(err, render.ErrTooManyPages) {
		return err
	}
	slog.Warn("a render answered to its caller failed", "org", orgID, "engine", engine, "err", err)
	msg, ok := engineRefusals[engine]
	if !ok {
		msg = engineRefusals[""]
	}
	return &engineFailure{msg: msg}
}

// engineRefusals is what the caller of a preview or a dry run is told when
// the engine that printed it failed, by engine.
var engineRefusals = map[string]string{
	render.EnginePhantom: "The phantom engine could not print this document: it supports less than Chromium " +
		"(elements nested very deep, for one). Print it with \"engine\": \"chromium\", or leave the engine out: " +
		"the default prints with Chromium what phantom cannot.",
	render.EngineChromium: "Chromium could not print this document. Simplify it (fewer or smaller images, " +
		"no scripts, less content) and try again.",
	"": "The document could not be printed. Try again; if it fails again, simplify the template.",
}

// engineFailure is render.ErrRender with the message a user is shown.
type engineFailure struct{ msg string }

func (e *engineFailure) Error() string { return e.msg }
func (e *engineFailure) Unwrap() error { return render.ErrRender }
