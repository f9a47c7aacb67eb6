// Package app holds Platen's use cases: for each thing a caller can do that
// takes more than one decision of an actor, one function that every way in
// calls — the REST API, the realtime namespace and the dashboard's routes in
// package transport. A handler only decodes its request, calls one function
// here, and encodes the answer; no rule lives in a handler.
//
//   - Generate and Regenerate: check a document request, admit it on a node,
//     record it through the organisation's actor (which holds its pages
//     against allowance and wallet), start its render, and wait for it when
//     asked. An Idempotency-Key makes a retry answer with the first document,
//     whichever way in each try came.
//   - UploadPDFTemplate: analyse an uploaded PDF, keep the pieces the filler
//     can edit, store the upload and copy it to a second node, and create the
//     template.
//   - CreateWebhook, UpdateWebhook, DeleteWebhook and PingWebhook: check a
//     URL's addresses before the endpoint's actor takes it.
//   - CopyStarter, StarterThumbnail, Preview (of a saved version or of a
//     draft, which is checked as a save would check it and never stored) and
//     RecordDownload.
//
// A use case that is one decision of one actor is that actor's command
// (actors.CreateTemplate, actors.SaveVersion, actors.CreateEndpoint, …),
// whose decide method holds the decision: the actor is its one home, and
// callers send the command with actors.Ask, which answers the command's
// reply typed (an endpoint's own changes go through AskEndpoint).
//
// Reads are local (docs/design.md "Consistency"); a use case that reads a
// record the caller may have just written elsewhere in the cluster catches up
// with the leader before it says the record does not exist.
//
// Dependencies point one way: transport → app → actors → cluster → storage →
// the domain rules, and actors → render (docs/architecture.md "The parts";
// internal/deptest). This package never imports transport.
package app
