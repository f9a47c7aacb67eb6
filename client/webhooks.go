package client

import "context"

// WebhooksService is the webhook endpoint routes (docs/webhooks.md).
type WebhooksService struct{ c *Client }

// CreateWebhookRequest registers an endpoint: an https URL whose host is
// public, and the events it takes (none: every kind).
type CreateWebhookRequest struct {
	Name   string   `json:"name"`
	URL    string   `json:"url"`
	Events []string `json:"events,omitempty"`
}

// Create registers an endpoint. Its SigningSecret is in this answer only.
func (s *WebhooksService) Create(ctx context.Context, req CreateWebhookRequest, opts ...CallOption) (*Webhook, error) {
	return s.webhook(ctx, s.c.newCall(opCreateWebhook), req, opts)
}

// List lists the endpoints.
func (s *WebhooksService) List(ctx context.Context, opts ...CallOption) ([]Webhook, error) {
	var l items[Webhook]
	if err := s.c.do(ctx, s.c.newCall(opListWebhooks), &l, opts); err != nil {
		return nil, err
	}
	return l.Items, nil
}

// Get reads an endpoint.
func (s *WebhooksService) Get(ctx context.Context, id string, opts ...CallOption) (*Webhook, error) {
	return s.webhook(ctx, s.c.newCall(opGetWebhook, id), nil, opts)
}

// UpdateWebhookRequest changes the fields that are not nil; Enabled true
// switches an endpoint that was switched off back on.
type UpdateWebhookRequest struct {
	Name    *string   `json:"name,omitempty"`
	URL     *string   `json:"url,omitempty"`
	Events  *[]string `json:"events,omitempty"`
	Enabled *bool     `json:"enabled,omitempty"`
}

// Update changes an endpoint.
func (s *WebhooksService) Update(ctx context.Context, id string, req UpdateWebhookRequest, opts ...CallOption) (*Webhook, error) {
	return s.webhook(ctx, s.c.newCall(opUpdateWebhook, id), req, opts)
}

// Delete deletes an endpoint; its undelivered deliveries are dropped.
func (s *WebhooksService) Delete(ctx context.Context, id string, opts ...CallOption) error {
	return s.c.do(ctx, s.c.newCall(opDeleteWebhook, id), nil, opts)
}

// ListParams pages a listing.
type ListParams struct {
	Limit  int
	Cursor string
}

// Deliveries reads an endpoint's delivery log, newest first.
func (s *WebhooksService) Deliveries(ctx context.Context, id string, p ListParams, opts ...CallOption) (*Page[Delivery], error) {
	cl := s.c.newCall(opListDeliveries, id)
	setInt(cl, "limit", p.Limit)
	setQuery(cl, "cursor", p.Cursor)
	var page Page[Delivery]
	if err := s.c.do(ctx, cl, &page, opts); err != nil {
		return nil, err
	}
	return &page, nil
}

// Ping sends a signed ping to the endpoint now and answers what it said.
func (s *WebhooksService) Ping(ctx context.Context, id string, opts ...CallOption) (*PingResult, error) {
	var p PingResult
	if err := s.c.do(ctx, s.c.newCall(opPingWebhook, id), &p, opts); err != nil {
		return nil, err
	}
	return &p, nil
}

func (s *WebhooksService) webhook(ctx context.Context, cl *call, body any, opts []CallOption) (*Webhook, error) {
	if body != nil {
		if err := cl.jsonBody(body); err != nil {
			return nil, err
		}
	}
	var w Webhook
	if err := s.c.do(ctx, cl, &w, opts); err != nil {
		return nil, err
	}
	return &w, nil
}
