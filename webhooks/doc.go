// Package webhooks is how Platen talks to its customers' endpoints (spec
// "Events", "Delivery", "Signature", "Retries"; docs/design.md "Webhooks"): the
// payload and its signature, the retry schedule, what each receiver answer
// means, and the guard that keeps deliveries off private networks, checked
// when an endpoint is registered and again for every address dialled, which
// defeats DNS rebinding.
//
// This package holds no state. The endpoint actor (package actors) owns each
// endpoint's deliveries; the outbox is in storage.
package webhooks
