package fonts

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	gofont "github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"

	"github.com/platen/platen/render/phantom/draw"
)

// ErrNoFonts is returned when the machine has no usable font: phantom cannot
// set text, and the caller hands documents to Chromium.
var ErrNoFonts = errors.New("fonts: no usable font on this machine")

// DefaultDirs are where Debian's fontconfig looks for fonts (fonts.conf);
// the <dir> elements of /etc/fonts/conf.d add to them.
var DefaultDirs = []string{"/usr/share/fonts", "/usr/local/share/fonts"}

// maxFontFiles bounds the scan, so that a machine with a huge font
// collection cannot make the first render take seconds.
const maxFontFiles = 20000

// Library is the machine's fonts, scanned once. Safe for concurrent use.
type Library struct {
	faces []*face
	// byFamily indexes faces by every family name they carry, folded as
	// fontconfig compares them (case and blanks ignored).
	byFamily map[string][]*face
	cfg      *fcConfig

	mu sync.Mutex // guards the caches below
	// resolved caches family resolution by query.
	resolved map[resolveKey]resolution
	// fallback caches per-character fallback by rune and style.
	fallback map[fallbackKey]*face
	// interned holds one *Resolved per face and synthesis.
	interned map[internKey]*Resolved
}

// face is one face of one font file: what the scan learned, and the parsed
// font once something needs it.
type face struct {
	lib   *Library
	order int // position in the scan, fontconfig's tie-break
	path  string
	index int
	info  *sfntInfo

	weight   int     // CSS weight, from OS/2 usWeightClass
	fcWeight float64 // fontconfig's weight scale
	width    float64 // percent
	slant    int     // fontconfig: 0 roman, 100 italic, 110 oblique

	once sync.Once
	font *draw.Font
	ot   *gofont.Font
	err  error
}

var (
	defaultOnce sync.Once
	defaultLib  *Library
	defaultErr  error
)

// Default returns the machine's fonts, scanned on first use and shared by
// the whole process.
func Default() (*Library, error) {
	defaultOnce.Do(func() {
		cfg := loadFcConfig("/etc/fonts")
		dirs := append(append([]string(nil), DefaultDirs...), cfg.dirs...)
		defaultLib, defaultErr = newLibrary(dirs, cfg)
	})
	return defaultLib, defaultErr
}

// NewLibrary scans dirs (recursively) for OpenType and TrueType fonts, with
// the fontconfig rules of /etc/fonts. Tests use it to see a machine with
// fewer fonts; the engine uses Default.
func NewLibrary(dirs ...string) (*Library, error) {
	return newLibrary(dirs, loadFcConfig("/etc/fonts"))
}

func newLibrary(dirs []string, cfg *fcConfig) (*Library, error) {
	l := &Library{
		byFamily: make(map[string][]*face),
		cfg:      cfg,
		resolved: make(map[resolveKey]resolution),
		fallback: make(map[fallbackKey]*face),
		interned: make(map[internKey]*Resolved),
	}
	seen := make(map[string]bool)
	var files []string
	for _, dir := range dirs {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != real && seen[p] {
					return filepath.SkipDir
				}
				seen[p] = true
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".ttf", ".otf", ".ttc", ".otc":
				if len(files) < maxFontFiles && !seen[p] {
					seen[p] = true
					files = append(files, p)
				}
			}
			return nil
		})
	}
	// fontconfig's cache lists a directory's fonts in readdir order; sorted
	// names are the stable approximation.
	sort.Strings(files)
	for _, p := range files {
		l.scanFile(p)
	}
	if len(l.faces) == 0 {
		return nil, ErrNoFonts
	}
	return l, nil
}

func (l *Library) scanFile(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	offs, err := readSFNTOffsets(f)
	if err != nil {
		return
	}
	for i, off := range offs {
		info, err := readSFNTInfo(f, off)
		if err != nil {
			continue
		}
		fc := &face{lib: l, order: len(l.faces), path: path, index: i, info: info}
		fc.weight, fc.width, fc.slant = 400, 100, 0
		if info.hasOS2 {
			if w := int(info.weightClass); w >= 1 && w <= 1000 {
				fc.weight = w
			}
			if info.widthClass >= 1 && info.widthClass <= 9 {
				fc.width = widthPercent[info.widthClass]
			}
			if info.fsSelection&1 != 0 {
				fc.slant = 100
			}
			if info.fsSelection&(1<<9) != 0 {
				fc.slant = 110
			}
		} else {
			if info.macStyle&1 != 0 {
				fc.weight = 700
			}
			if info.macStyle&2 != 0 {
				fc.slant = 100
			}
		}
		// fontconfig also reads the style name: "Oblique" faces without
		// the OS/2 oblique bit are oblique to it.
		if fc.slant == 100 && strings.Contains(strings.ToLower(info.subfamily), "oblique") {
			fc.slant = 110
		}
		fc.fcWeight = fcWeightFromOT(float64(fc.weight))
		l.faces = append(l.faces, fc)
		for _, fam := range info.families {
			k := foldFamily(fam)
			l.byFamily[k] = append(l.byFamily[k], fc)
		}
	}
}

// widthPercent maps OS/2 usWidthClass to CSS font-stretch percentages.
var widthPercent = [10]float64{100, 50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200}

// foldFamily folds a family name as fontconfig compares them: case and
// blanks ignored.
func foldFamily(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// load parses the face's file once: its draw.Font for the writer and its
// go-text font for shaping.
func (fc *face) load() error {
	fc.once.Do(func() {
		data, err := os.ReadFile(fc.path)
		if err != nil {
			fc.err = err
			return
		}
		lds, err := ot.NewLoaders(bytes.NewReader(data))
		if err != nil {
			fc.err = err
			return
		}
		if fc.index >= len(lds) {
			fc.err = fmt.Errorf("fonts: %s has no face %d", fc.path, fc.index)
			return
		}
		otf, err := gofont.NewFont(lds[fc.index])
		if err != nil {
			fc.err = fmt.Errorf("fonts: %s: %w", fc.path, err)
			return
		}
		fc.ot = otf
		in := fc.info
		ps := in.postScriptName
		if ps == "" {
			ps = strings.ReplaceAll(in.families[0], " ", "")
		}
		capHeight := in.capHeight
		if capHeight == 0 {
			capHeight = in.hheaAscent
		}
		fc.font = &draw.Font{
			Key:            fmt.Sprintf("%s#%d", fc.path, fc.index),
			Data:           data,
			Index:          fc.index,
			PostScriptName: ps,
			UnitsPerEm:     in.unitsPerEm,
			Ascent:         in.hheaAscent,
			Descent:        in.hheaDescent,
			CapHeight:      capHeight,
			BBox:           [4]int{in.xMin, in.yMin, in.xMax, in.yMax},
			ItalicAngle:    in.italicAngle,
			FixedPitch:     in.fixedPitch,
			Serif:          isSerif(in),
			Italic:         fc.slant != 0,
		}
	})
	return fc.err
}

// isSerif guesses the PDF Serif flag from the OS/2 family class and PANOSE,
// as font descriptors are only hints to viewers.
func isSerif(in *sfntInfo) bool {
	switch in.familyClass >> 8 {
	case 1, 2, 3, 4, 5, 7:
		return true
	case 8:
		return false
	}
	return in.panoseFamily == 2 && in.panoseSerifType >= 2 && in.panoseSerifType <= 10
}

// fcWeightFromOT is fontconfig's FcWeightFromOpenTypeDouble: OS/2 weights
// onto fontconfig's scale, piecewise linear.
func fcWeightFromOT(w float64) float64 {
	if w < 0 {
		return 0
	}
	if w > 1000 {
		w = 1000
	}
	return interp(w, otWeights[:], fcWeights[:])
}

var (
	otWeights = [...]float64{0, 100, 200, 300, 350, 380, 400, 500, 600, 700, 800, 900, 1000}
	fcWeights = [...]float64{0, 0, 40, 50, 55, 75, 80, 100, 180, 200, 205, 210, 215}
)

func interp(v float64, from, to []float64) float64 {
	for i := 1; i < len(from); i++ {
		if v <= from[i] {
			a, b := from[i-1], from[i]
			if b == a {
				return to[i]
			}
			return to[i-1] + (v-a)*(to[i]-to[i-1])/(b-a)
		}
	}
	return to[len(to)-1]
}

// hasFamily reports whether a face of that family is installed.
func (l *Library) hasFamily(name string) bool {
	return len(l.byFamily[foldFamily(name)]) > 0
}
