package fonts

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var fcValueRE = regexp.MustCompile(`"([^"]*)"\((s|w)\)`)

// TestSubstituteMatchesFontconfig compares the family list the
// configuration makes of a name with fontconfig's own (fc-pattern -c -d):
// the same families, in the same order, with the same bindings.
func TestSubstituteMatchesFontconfig(t *testing.T) {
	cfg := loadFcConfig("/etc/fonts")
	if len(cfg.rules) == 0 {
		t.Fatal("no fontconfig rules read from /etc/fonts")
	}
	names := []string{"Arial", "Helvetica", "Times", "Times New Roman", "Courier", "Courier New", "Georgia",
		"Verdana", "Tahoma", "Liberation Sans", "DejaVu Sans", "DejaVu Sans Mono", "Nimbus Sans", "sans-serif",
		"serif", "monospace", "sans", "mono", "Sans Serif", "system-ui", "cursive", "fantasy", "Symbol",
		"Calibri", "Cambria", "Comic Sans MS", "Impact", "Nope", "Palatino", "Bookman", "ZapfDingbats", "emoji", "math"}
	for _, name := range names {
		out, err := exec.Command("fc-pattern", "-c", "-d", strings.ReplaceAll(name, "-", `\-`)).Output()
		if err != nil {
			t.Fatalf("fc-pattern: %v", err)
		}
		var want []string
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "family:") {
				for _, m := range fcValueRE.FindAllStringSubmatch(line, -1) {
					want = append(want, m[1]+"("+m[2]+")")
				}
			}
		}
		var got []string
		for _, f := range cfg.substitute(name) {
			b := "w"
			if f.strong {
				b = "s"
			}
			got = append(got, f.name+"("+b+")")
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s:\n got  %s\n want %s", name, strings.Join(got, ", "), strings.Join(want, ", "))
		}
	}
}
