package fonts

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// fcConfig is the part of fontconfig's configuration that decides which
// family a name resolves to.
type fcConfig struct {
	dirs []string
}

var dirRE = regexp.MustCompile(`<dir[^>]*>([^<]+)</dir>`)

// loadFcConfig reads the extra font directories named in root/conf.d.
func loadFcConfig(root string) *fcConfig {
	cfg := &fcConfig{}
	files, _ := filepath.Glob(filepath.Join(root, "conf.d", "*.conf"))
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range dirRE.FindAllSubmatch(b, -1) {
			d := string(m[1])
			if filepath.IsAbs(d) {
				cfg.dirs = append(cfg.dirs, d)
			}
		}
	}
	return cfg
}

// substitute returns the family list fontconfig's configuration makes of
// one requested family.
func (c *fcConfig) substitute(family string) []fcFamily {
	out := []fcFamily{{name: family, strong: true}}
	for _, a := range builtinAliases[foldFamily(family)] {
		out = append(out, fcFamily{name: a, strong: true})
	}
	return out
}

type fcFamily struct {
	name   string
	strong bool
}

var builtinAliases = map[string][]string{
	"arial":           {"Liberation Sans", "Arimo"},
	"helvetica":       {"Nimbus Sans", "Liberation Sans"},
	"timesnewroman":   {"Liberation Serif"},
	"times":           {"Nimbus Roman", "Liberation Serif"},
	"couriernew":      {"Liberation Mono"},
	"courier":         {"Nimbus Mono PS", "Liberation Mono"},
	"sans-serif":      {"DejaVu Sans", "Liberation Sans"},
	"sans":            {"DejaVu Sans", "Liberation Sans"},
	"serif":           {"DejaVu Serif", "Liberation Serif"},
	"monospace":       {"DejaVu Sans Mono", "Liberation Mono"},
	"system-ui":       {"DejaVu Sans"},
	"webkit-standard": {"Liberation Serif"},
}
