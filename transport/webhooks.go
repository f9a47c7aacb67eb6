package transport

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/platen/platen/app"
	"github.com/platen/platen/internal/ids"
	"github.com/platen/platen/storage"
	"github.com/platen/platen/webhooks"
)

// endpointView is a webhook endpoint as the API shows it.
type endpointView struct {
	ID                  string     `json:"id"`
	Name                string     `json:"name"`
	URL                 string     `json:"url"`
	Events              []string   `json:"events"`
	Enabled             bool       `json:"enabled"`
	DisabledReason      string     `json:"disabledReason,omitempty"`
	DisabledAt          *time.Time `json:"disabledAt,omitempty"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	SecretPrefix        string     `json:"secretPrefix"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
	// SigningSecret is shown only in the answer that created the endpoint.
	SigningSecret string `json:"signingSecret,omitempty"`
}

func viewEndpoint(e storage.Endpoint) endpointView {
	return endpointView{ID: e.ID, Name: e.Name, URL: e.URL, Events: e.Events, Enabled: e.Enabled, DisabledReason: e.DisabledReason,
		DisabledAt: e.DisabledAt, ConsecutiveFailures: e.ConsecutiveFailures, SecretPrefix: e.SecretPrefix, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
}

// deliveryView is a delivery in an endpoint's log.
type deliveryView struct {
	ID            string     `json:"id"`
	Event         string     `json:"event"`
	EventID       string     `json:"eventId"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	LastStatus    int        `json:"lastStatus,omitempty"`
	LastError     string     `json:"lastError,omitempty"`
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	DeliveredAt   *time.Time `json:"deliveredAt,omitempty"`
	// LastRequest and LastResponse are the latest attempt's, bounded
	// (webhooks.Exchange); LastResponse is absent when nothing answered.
	LastRequest  *webhooks.Sent     `json:"lastRequest,omitempty"`
	LastResponse *webhooks.Answered `json:"lastResponse,omitempty"`
}

func (s *Server) createWebhook(r *request) error {
	var in struct {
		Name   string   `json:"name"`
		URL    string   `json:"url"`
		Events []string `json:"events"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	ne, err := s.app.CreateWebhook(context.Background(), r.org.ID, app.NewWebhook{Name: in.Name, URL: in.URL, Events: in.Events})
	if err != nil {
		return err
	}
	v := viewEndpoint(ne.Endpoint)
	v.SigningSecret = ne.Secret
	return r.ok(http.StatusCreated, v, "endpoint created; store the signing secret now, it is not shown again")
}

// webhook resolves :id within the caller's organisation.
func (s *Server) webhook(r *request) (storage.Endpoint, error) {
	return s.app.Webhook(r.org.ID, r.param("id"))
}

func (s *Server) listWebhooks(r *request) error {
	eps, err := s.deps.Store.OrgEndpoints(r.org.ID)
	if err != nil {
		return err
	}
	items := make([]endpointView, 0, len(eps))
	for _, e := range eps {
		items = append(items, viewEndpoint(e))
	}
	return r.ok(http.StatusOK, map[string]any{"items": items}, fmt.Sprintf("%d endpoints", len(items)))
}

func (s *Server) getWebhook(r *request) error {
	e, err := s.webhook(r)
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, viewEndpoint(e), "")
}

func (s *Server) patchWebhook(r *request) error {
	var in struct {
		Name    *string   `json:"name"`
		URL     *string   `json:"url"`
		Events  *[]string `json:"events"`
		Enabled *bool     `json:"enabled"`
	}
	if err := r.decode(&in); err != nil {
		return err
	}
	r.asked = true
	e, err := s.app.UpdateWebhook(context.Background(), r.org.ID, r.param("id"), storage.UpdateEndpoint{Name: in.Name, URL: in.URL, Events: in.Events, Enabled: in.Enabled})
	if err != nil {
		return err
	}
	msg := "endpoint updated"
	if in.Enabled != nil && *in.Enabled {
		msg = "endpoint enabled; deliveries that waited resume now"
	}
	return r.ok(http.StatusOK, viewEndpoint(e), msg)
}

func (s *Server) deleteWebhook(r *request) error {
	r.asked = true
	e, err := s.app.DeleteWebhook(r.org.ID, r.param("id"))
	if err != nil {
		return err
	}
	return r.ok(http.StatusOK, map[string]any{"id": e.ID, "deleted": true}, "endpoint deleted; its undelivered deliveries are dropped")
}

func (s *Server) listDeliveries(r *request) error {
	e, err := s.webhook(r)
	if err != nil {
		return err
	}
	limit, err := listLimit(r)
	if err != nil {
		return err
	}
	cursor, err := listCursor(r, ids.Delivery)
	if err != nil {
		return err
	}
	ds, err := s.deps.Store.Deliveries(e.ID, cursor, limit+1)
	if err != nil {
		return err
	}
	var next *string
	if len(ds) > limit {
		ds = ds[:limit]
		next = &ds[limit-1].ID
	}
	items := make([]deliveryView, len(ds))
	for i, d := range ds {
		v := deliveryView{ID: d.ID, Event: d.Event, EventID: d.EventID, Status: d.Status, Attempts: d.Attempts, LastStatus: d.LastStatus,
			LastError: d.LastError, CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
		if d.Last != nil {
			v.LastRequest, v.LastResponse = &d.Last.Request, d.Last.Response
		}
		if d.Status == storage.DeliveryPending {
			at := d.NextAttemptAt
			v.NextAttemptAt = &at
		}
		items[i] = v
	}
	return r.ok(http.StatusOK, map[string]any{"items": items, "nextCursor": next}, "")
}

// pingWebhook sends a signed ping now and answers with what the receiver said.
func (s *Server) pingWebhook(r *request) error {
	r.asked = true
	a, err := s.app.PingWebhook(r.org.ID, r.param("id"))
	if err != nil {
		return err
	}
	body := map[string]any{"status": a.Status, "durationMs": a.Duration.Milliseconds(), "body": string(a.Body)}
	msg := fmt.Sprintf("the endpoint answered HTTP %d", a.Status)
	if a.Err != nil {
		why := webhooks.Explain(a.Err)
		body["error"] = why
		msg = "the endpoint did not answer: " + why
	}
	return r.ok(http.StatusOK, body, msg)
}
