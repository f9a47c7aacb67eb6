package fonts

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/platen/platen/render/chromium"
)

// TestProductionFontsMatchChromium runs Chromium and phantom over the fonts
// a production node has (fonts-liberation and fonts-dejavu-core only), by
// giving both a fontconfig configuration that names only those
// directories: families the test fonts provide (Nimbus, Latin Modern,
// OpenSymbol) must resolve and fall back as Chromium does without them.
func TestProductionFontsMatchChromium(t *testing.T) {
	t.Parallel()
	dirs := []string{"/usr/share/fonts/truetype/liberation", "/usr/share/fonts/truetype/dejavu"}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("production fonts missing: %v", err)
		}
	}
	tmp := t.TempDir()
	conf := productionConf(t, tmp, dirs)
	wrapper := filepath.Join(tmp, "chromium")
	script := "#!/bin/sh\nFONTCONFIG_FILE=" + conf + " exec /usr/bin/chromium \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := chromium.DefaultConfig()
	cfg.Bin = wrapper
	cfg.Pages = 1
	e, err := chromium.New(cfg)
	if err == nil {
		err = e.Start()
	}
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	defer e.Close()

	l, err := newLibrary(dirs, loadFcConfigFile(conf))
	if err != nil {
		t.Fatal(err)
	}
	var cases []lineCase
	for _, fam := range []string{"Arial", "Helvetica", "Times", "Courier", "Nimbus Sans", "Latin Modern Roman",
		"OpenSymbol", "Symbol", "sans-serif", "serif", "monospace", "system-ui", "Nope, Courier New"} {
		for _, st := range []struct {
			weight int
			italic bool
		}{{400, false}, {700, true}} {
			cases = append(cases, lineCase{family: fam, size: 16, weight: st.weight, italic: st.italic,
				text: "Hamburg € ₹ ✓ → ┌─┐ Καλη Привет Բարեւ 😀 ₿ ✔"})
		}
	}
	lines := printLinesWith(t, e, cases)
	sh := l.NewShaper()
	bad := 0
	for i, c := range cases {
		runs := sh.Shape(c.query(), c.size, c.text, ShapeOptions{})
		if diff, _, _ := lineDiff(runs, lines[i], 0.001); diff != "" {
			bad++
			t.Errorf("%s %d italic=%v: %s", c.family, c.weight, c.italic, diff)
		}
	}
	t.Logf("%d lines over production's fonts, %d differ", len(cases), bad)
}

// productionConf writes a fonts.conf like /etc/fonts/fonts.conf but whose
// only font directories are dirs, keeping every rule of conf.d (except
// the ones that add directories).
func productionConf(t *testing.T, tmp string, dirs []string) string {
	t.Helper()
	base, err := os.ReadFile("/etc/fonts/fonts.conf")
	if err != nil {
		t.Fatal(err)
	}
	s := regexp.MustCompile(`(?s)<dir[^>]*>.*?</dir>|<include[^>]*>conf\.d</include>|<cachedir[^>]*>.*?</cachedir>`).ReplaceAllString(string(base), "")
	var b strings.Builder
	for _, d := range dirs {
		b.WriteString("<dir>" + d + "</dir>\n")
	}
	b.WriteString("<cachedir>" + filepath.Join(tmp, "cache") + "</cachedir>\n")
	files, _ := filepath.Glob("/etc/fonts/conf.d/*.conf")
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && strings.Contains(string(data), "<dir") {
			continue
		}
		b.WriteString("<include>" + f + "</include>\n")
	}
	s = strings.Replace(s, "</fontconfig>", b.String()+"</fontconfig>", 1)
	name := filepath.Join(tmp, "fonts.conf")
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}
