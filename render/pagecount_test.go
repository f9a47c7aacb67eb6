package render

import (
	"context"
	"errors"
	"testing"
)

// countedEngine is a PageCounter whose PDF is not a PDF: the renderer must
// take its count and never read the bytes back.
type countedEngine struct{ pages int }

func (e countedEngine) Name() string { return EnginePhantom }
func (e countedEngine) Render(context.Context, Job) ([]byte, error) {
	return nil, errors.New("Render called instead of RenderCounted")
}
func (e countedEngine) RenderCounted(context.Context, Job) ([]byte, int, error) {
	return []byte("not a PDF"), e.pages, nil
}

func TestPageCounterCountIsTakenAndCapped(t *testing.T) {
	c, err := Version{HTML: "<p>{{x}}</p>"}.Check()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultRendererConfig()
	cfg.MaxPages = 3
	req := Request{Version: c, Data: map[string]any{"x": "y"}, Engine: EnginePhantom}
	res, err := NewRenderer(cfg, countedEngine{pages: 3}).Render(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != 3 || string(res.PDF) != "not a PDF" {
		t.Errorf("pages %d, PDF %q: want the engine's count and bytes", res.Pages, res.PDF)
	}
	if _, err := NewRenderer(cfg, countedEngine{pages: 4}).Render(context.Background(), req); !errors.Is(err, ErrTooManyPages) {
		t.Errorf("4 pages over a cap of 3: err %v, want ErrTooManyPages", err)
	}
}
