package transport

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/platen/platen/internal/fault"
)

func (s *Server) healthz(r *request) error {
	return r.ok(http.StatusOK, map[string]string{"status": "ok"}, "alive")
}

func (s *Server) readyz(r *request) error {
	if err := s.deps.Ready(); err != nil {
		return fmt.Errorf("%w: not ready: %v", fault.ErrUnavailable, err)
	}
	return r.ok(http.StatusOK, map[string]string{"status": "ready"}, "ready")
}

func (s *Server) metricsHandler() func(*request) error {
	h := fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(s.deps.Metrics, promhttp.HandlerOpts{}))
	return func(r *request) error {
		h(r.RequestCtx)
		return nil
	}
}
