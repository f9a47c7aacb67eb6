package render

import (
	"context"
	"strings"
	"testing"
)

// namedEngine stands in for an engine in the tests of the choice rule: the
// rule looks only at names and at what a Judge says, never at the print.
// The engines themselves are tested with real printing in their packages.
type namedEngine struct {
	name    string
	missing []string
}

func (e namedEngine) Name() string { return e.name }
func (e namedEngine) Render(context.Context, Job) ([]byte, error) {
	return nil, nil
}

// judgedEngine is a namedEngine that is also a Judge, as phantom is.
type judgedEngine struct{ namedEngine }

func (e judgedEngine) Unsupported(Job) []string { return e.missing }

func TestEngineChoice(t *testing.T) {
	version := func(manifestEngine string) *Checked {
		v := Version{HTML: "<p>{{x}}</p>", Manifest: []byte(`{"engine":"` + manifestEngine + `"}`)}
		c, err := v.Check()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	supported := judgedEngine{namedEngine{name: EnginePhantom}}
	unsupported := judgedEngine{namedEngine{name: EnginePhantom, missing: []string{"display:flex at div.a", "float at img"}}}
	chromium := namedEngine{name: EngineChromium}
	many := judgedEngine{namedEngine{name: EnginePhantom, missing: []string{"a", "b", "c", "d", "e", "f", "g"}}}
	cases := []struct {
		name       string
		engines    []Engine
		def        string
		manifest   string
		request    string
		want       string
		wantReason []string
	}{
		{"default, all supported", []Engine{supported, chromium}, DefaultAuto, "", "", EnginePhantom, []string{"platform default", "supports everything"}},
		{"default, hand-off", []Engine{unsupported, chromium}, DefaultAuto, "", "", EngineChromium, []string{"platform default", "display:flex at div.a", "float at img"}},
		{"default, long list cut", []Engine{many, chromium}, DefaultAuto, "", "", EngineChromium, []string{"a, b, c, d, e, and 2 more"}},
		{"default set to chromium", []Engine{supported, chromium}, EngineChromium, "", "", EngineChromium, []string{"platform default"}},
		{"manifest asks phantom, ignored list", []Engine{unsupported, chromium}, DefaultAuto, EnginePhantom, "", EnginePhantom, []string{"asked for by the template", "ignored", "display:flex at div.a"}},
		{"request beats manifest", []Engine{supported, chromium}, DefaultAuto, EnginePhantom, EngineChromium, EngineChromium, []string{"asked for by the request"}},
		{"request for phantom, clean", []Engine{supported, chromium}, DefaultAuto, "", EnginePhantom, EnginePhantom, []string{"asked for by the request"}},
		{"phantom missing on the node", []Engine{chromium}, DefaultAuto, "", EnginePhantom, EngineChromium, []string{"does not run"}},
		{"chromium missing on the node", []Engine{unsupported}, DefaultAuto, "", "", EnginePhantom, []string{"chromium does not run"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultRendererConfig()
			cfg.DefaultEngine = c.def
			r := NewRenderer(cfg, c.engines...)
			got, err := r.Choose(Request{Version: version(c.manifest), Engine: c.request, Data: map[string]any{"x": "y"}})
			if err != nil {
				t.Fatal(err)
			}
			if got.Engine != c.want {
				t.Fatalf("engine %q, want %q (reason %q)", got.Engine, c.want, got.Reason)
			}
			for _, w := range c.wantReason {
				if !strings.Contains(got.Reason, w) {
					t.Errorf("reason %q does not say %q", got.Reason, w)
				}
			}
		})
	}
	if _, err := NewRenderer(DefaultRendererConfig(), chromium).Choose(Request{Version: version(""), Engine: "webkit"}); err == nil {
		t.Error("an unknown engine name was accepted")
	}
	if err := (RendererConfig{DefaultEngine: "webkit"}).Validate(); err == nil {
		t.Error("an unknown default engine was accepted")
	}
}
