package chromium

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/internal/tier"
	"github.com/platen/platen/render"
)

// testFamilies are font families from the packages that
// `scripts/install-deps.sh --test` adds (fonts-urw-base35, fonts-lmodern,
// fonts-opensymbol), as an operator would add fonts, with the name each
// embedded font carries.
var testFamilies = []struct{ family, fontName string }{
	{"Nimbus Roman", "NimbusRoman-Regular"},
	{"Latin Modern Roman", "LMRoman10-Regular"},
	{"OpenSymbol", "OpenSymbol"},
}

// TestInstalledFontsOnFreshEngines starts fresh engines one after another,
// as a node does after fonts are installed, and prints a document in the
// added families with each: every render ends within its budget and embeds
// every family.
func TestInstalledFontsOnFreshEngines(t *testing.T) {
	tier.Full(t, "starts four fresh browsers")
	out, err := exec.Command("fc-list", ":", "family").Output()
	if err != nil {
		t.Fatalf("fc-list: %v (scripts/install-deps.sh installs fontconfig with chromium)", err)
	}
	for _, f := range testFamilies {
		if !strings.Contains(string(out), f.family) {
			t.Fatalf("font family %q is not installed: run scripts/install-deps.sh --test", f.family)
		}
	}
	if _, err := exec.LookPath("pdffonts"); err != nil {
		t.Fatalf("pdffonts: %v (scripts/install-deps.sh installs poppler-utils)", err)
	}
	html := `<html><body>
<p style="font-family:'Nimbus Roman'">Nimbus Roman, URW's Times</p>
<p style="font-family:'Latin Modern Roman'">Latin Modern Roman, from TeX</p>
<p style="font-family:OpenSymbol">∑ ∞ ✓</p>
</body></html>`
	for run := 0; run < 4; run++ {
		e, err := New(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		pdf, err := renderWithin(t, e, 60*time.Second, render.Job{HTML: html, Geometry: a4()})
		if cerr := e.Close(); cerr != nil {
			t.Error(cerr)
		}
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		checkEmbedded(t, pdf)
	}
}

// fontNameRE matches a font descriptor's subset-tagged name.
var fontNameRE = regexp.MustCompile(`/FontName\s*/[A-Z]{6}\+([A-Za-z0-9-]+)`)

// checkEmbedded fails unless every test family is embedded in pdf. pdffonts
// lists every font with whether it is embedded. Chromium embeds TrueType
// fonts (OpenSymbol) by name, but fonts with CFF outlines (URW's and Latin
// Modern's OpenType fonts) as Type 3 fonts, which have no name of their own
// and which pdffonts lists as "[none]": their names are in their font
// descriptors.
func checkEmbedded(t *testing.T, pdf []byte) {
	t.Helper()
	path := t.TempDir() + "/fonts.pdf"
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdffonts", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdffonts: %v: %s", err, out)
	}
	listed := map[string]bool{} // font name (subset tag dropped) → embedded
	type3 := 0
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 {
		t.Fatalf("pdffonts lists no fonts:\n%s", out)
	}
	for _, line := range lines[2:] {
		f := strings.Fields(line)
		if len(f) < 7 {
			continue
		}
		emb := f[len(f)-5] == "yes"
		if !emb {
			t.Errorf("font not embedded: %s", line)
		}
		name := f[0]
		if i := strings.IndexByte(name, '+'); i >= 0 {
			name = name[i+1:]
		}
		listed[name] = emb
		if strings.Contains(line, "Type 3") {
			type3++
		}
	}
	described := map[string]bool{}
	for _, m := range fontNameRE.FindAllSubmatch(pdf, -1) {
		described[string(m[1])] = true
	}
	unnamed := 0 // families embedded as Type 3 fonts
	for _, f := range testFamilies {
		switch {
		case listed[f.fontName]:
		case described[f.fontName]:
			unnamed++
		default:
			t.Errorf("%s (%s) is not in the PDF; pdffonts:\n%s", f.family, f.fontName, out)
		}
	}
	if type3 < unnamed {
		t.Errorf("%d families are only in font descriptors but pdffonts lists %d embedded Type 3 fonts:\n%s", unnamed, type3, out)
	}
}
