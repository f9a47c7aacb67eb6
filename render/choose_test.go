package render

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/platen/platen/internal/fault"
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

func (e judgedEngine) Unsupported(context.Context, Job) []string { return e.missing }

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
		{"named phantom, long list cut", []Engine{many, chromium}, DefaultAuto, EnginePhantom, "", EnginePhantom, []string{"a, b, c, d, e, and 2 more"}},
		{"zero default is auto", []Engine{unsupported, chromium}, "", "", "", EngineChromium, []string{"platform default", "display:flex at div.a"}},
		{"zero default is auto, all supported", []Engine{supported, chromium}, "", "", "", EnginePhantom, []string{"platform default", "supports everything"}},
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

// failingEngine is a judged phantom whose every print fails as a fault of
// its own would.
type failingEngine struct{ judgedEngine }

func (failingEngine) Render(context.Context, Job) ([]byte, error) {
	return nil, fmt.Errorf("%w: a fault", ErrRender)
}

// printingEngine answers every job with a one-page PDF.
type printingEngine struct{ namedEngine }

func (printingEngine) Render(context.Context, Job) ([]byte, error) {
	return onePagePDF(), nil
}

// onePagePDF is the smallest well-formed one-page PDF, with its xref.
func onePagePDF() []byte {
	objs := []string{
		"<</Type/Catalog/Pages 2 0 R>>",
		"<</Type/Pages/Kids[3 0 R]/Count 1>>",
		"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>",
	}
	var b strings.Builder
	b.WriteString("%PDF-1.7\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return []byte(b.String())
}

// TestAutoFallsBackWhenPhantomFails: under the default, a document phantom
// chose but failed on is printed by chromium and says so; a document that
// names phantom fails as it asked.
func TestAutoFallsBackWhenPhantomFails(t *testing.T) {
	v, err := Version{HTML: "<p>x</p>"}.Check()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultRendererConfig()
	cfg.DefaultEngine = DefaultAuto
	r := NewRenderer(cfg, failingEngine{judgedEngine{namedEngine{name: EnginePhantom}}}, printingEngine{namedEngine{name: EngineChromium}})
	res, err := r.Render(context.Background(), Request{Version: v})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != EngineChromium || !strings.Contains(res.EngineReason, "phantom failed") {
		t.Fatalf("engine %q, reason %q", res.Engine, res.EngineReason)
	}
	if _, err := r.Render(context.Background(), Request{Version: v, Engine: EnginePhantom}); !errors.Is(err, ErrRender) {
		t.Fatalf("a document that names phantom: %v, want its ErrRender", err)
	}
}

// TestPDFAChoice: a PDF/A template is phantom's whatever the platform
// default; a request that names chromium, a node without phantom, and a
// document using what phantom does not support are refused, saying why;
// a manifest that cannot be PDF/A is refused at its field.
func TestPDFAChoice(t *testing.T) {
	check := func(manifest string) (*Checked, error) {
		return Version{HTML: "<p>{{x}}</p>", Manifest: []byte(manifest)}.Check()
	}
	v, err := check(`{"pdfa":"3b"}`)
	if err != nil {
		t.Fatal(err)
	}
	supported := judgedEngine{namedEngine{name: EnginePhantom}}
	unsupported := judgedEngine{namedEngine{name: EnginePhantom, missing: []string{"script"}}}
	chromium := namedEngine{name: EngineChromium}
	for _, c := range []struct {
		name     string
		engines  []Engine
		def, req string
		want     string // engine, or the refusal's words
	}{
		{"auto", []Engine{supported, chromium}, DefaultAuto, "", EnginePhantom},
		{"default chromium", []Engine{supported, chromium}, EngineChromium, "", EnginePhantom},
		{"request chromium", []Engine{supported, chromium}, DefaultAuto, EngineChromium, "the request names chromium"},
		{"unsupported", []Engine{unsupported, chromium}, DefaultAuto, "", "phantom does not support script"},
		{"no phantom", []Engine{chromium}, DefaultAuto, "", "does not run phantom"},
	} {
		cfg := DefaultRendererConfig()
		cfg.DefaultEngine = c.def
		got, err := NewRenderer(cfg, c.engines...).Choose(Request{Version: v, Engine: c.req, Data: map[string]any{"x": "y"}})
		switch {
		case err != nil:
			if !errors.Is(err, ErrRender) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "PDF/A-3b") {
				t.Errorf("%s: %v, want a refusal saying %q", c.name, err, c.want)
			}
		case got.Engine != c.want || !strings.Contains(got.Reason, "PDF/A-3b"):
			t.Errorf("%s: %+v, want %s", c.name, got, c.want)
		}
	}
	for manifest, field := range map[string]string{
		`{"pdfa":"1b"}`:                     "manifest.pdfa",
		`{"pdfa":"3b","engine":"chromium"}`: "manifest.engine",
		`{"sign":{"certificateId":"x"}}`:    "manifest.sign.certificateId",
		`{"sign":{"certificateId":"crt_00000000000000000000000000","appearance":"loud"}}`: "manifest.sign.appearance",
	} {
		_, err := check(manifest)
		var f *fault.FieldError
		if !errors.As(err, &f) || f.Field != field {
			t.Errorf("%s: %v, want a refusal at %s", manifest, err, field)
		}
	}
	// Phantom tags PDF/A files too.
	if _, err := check(`{"pdfa":"2u","taggedPdf":true}`); err != nil {
		t.Errorf("a tagged PDF/A manifest: %v", err)
	}
}
