package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/platen/platen/actors"
	"github.com/platen/platen/internal/fault"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/storage"
	"github.com/platen/platen/webhooks"
)

// urlCheckTimeout bounds the look-up of a webhook URL's addresses.
const urlCheckTimeout = 5 * time.Second

// Webhook reads a webhook endpoint of an organisation; a deleted one is not
// found.
func (a *App) Webhook(orgID, id string) (storage.Endpoint, error) {
	e, err := a.deps.Store.Endpoint(id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (e.OrgID != orgID || e.Deleted)) || !ids.HasKind(id, ids.Webhook) {
		return storage.Endpoint{}, fmt.Errorf("%w: webhook endpoint %q", fault.ErrNotFound, id)
	}
	return e, err
}

// NewWebhook is a webhook endpoint to register.
type NewWebhook struct {
	Name   string
	URL    string
	Events []string
}

// CreateWebhook registers an endpoint once its URL is https and every address
// it resolves to is public (docs/design.md "Webhooks"). The answer carries the
// signing secret, shown this once.
func (a *App) CreateWebhook(ctx context.Context, orgID string, in NewWebhook) (actors.NewEndpoint, error) {
	if in.URL == "" {
		return actors.NewEndpoint{}, fault.Invalid("url", "is required")
	}
	if err := a.checkURL(ctx, in.URL); err != nil {
		return actors.NewEndpoint{}, err
	}
	return actors.Ask(a.deps.Actors, orgID, actors.CreateEndpoint{Name: in.Name, URL: in.URL, Events: in.Events})
}

// UpdateWebhook changes an endpoint through its actor: a new URL is checked
// as at registration; Enabled true re-enables a switched-off endpoint and
// resumes the deliveries that waited.
func (a *App) UpdateWebhook(ctx context.Context, orgID, id string, change storage.UpdateEndpoint) (storage.Endpoint, error) {
	var e storage.Endpoint
	if err := a.fresh(func() (err error) { e, err = a.Webhook(orgID, id); return err }); err != nil {
		return storage.Endpoint{}, err
	}
	if change.URL != nil {
		if err := a.checkURL(ctx, *change.URL); err != nil {
			return storage.Endpoint{}, err
		}
	}
	if change.Events != nil {
		if err := actors.CheckEvents(*change.Events); err != nil {
			return storage.Endpoint{}, err
		}
	}
	if change.Name != nil && *change.Name == "" {
		return storage.Endpoint{}, fault.Invalid("name", "must not be empty")
	}
	res, err := a.deps.Actors.AskEndpoint(e.ID, actors.UpdateEndpoint{Change: change})
	if err != nil {
		return storage.Endpoint{}, err
	}
	return res.(storage.Endpoint), nil
}

// DeleteWebhook deletes an endpoint; its undelivered deliveries are dropped.
func (a *App) DeleteWebhook(orgID, id string) (storage.Endpoint, error) {
	var e storage.Endpoint
	if err := a.fresh(func() (err error) { e, err = a.Webhook(orgID, id); return err }); err != nil {
		return storage.Endpoint{}, err
	}
	_, err := a.deps.Actors.AskEndpoint(e.ID, actors.UpdateEndpoint{Change: storage.UpdateEndpoint{Delete: true}})
	return e, err
}

// PingWebhook sends a signed ping delivery to an endpoint now and returns
// what the receiver answered (spec "Ping").
func (a *App) PingWebhook(orgID, id string) (webhooks.Attempt, error) {
	var e storage.Endpoint
	if err := a.fresh(func() (err error) { e, err = a.Webhook(orgID, id); return err }); err != nil {
		return webhooks.Attempt{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), webhooks.Timeout+time.Second)
	defer cancel()
	return a.deps.Actors.Ping(ctx, e)
}

// checkURL refuses a URL that is not https or reaches a private address.
func (a *App) checkURL(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, urlCheckTimeout)
	defer cancel()
	if err := a.deps.Guard.CheckURL(ctx, url); err != nil {
		return fault.Invalid("url", "%v", err)
	}
	return nil
}

// WebhooksPrivate reports whether endpoints may be on loopback and private
// addresses: a development node's (serve --dev), where `platen webhooks
// listen` receives deliveries on this machine.
func (a *App) WebhooksPrivate() bool { return a.deps.Guard.AllowPrivate }
