package fonts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// DefaultDirs are where Debian's fontconfig looks for fonts, used when the
// machine has no fontconfig configuration naming its directories.
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
	resolved map[queryKey]resolution
	// fallback caches the system's fallback face by character.
	fallback map[rune]*face
	// families caches matchFamily.
	families map[familyKey]*face
	// scanBuf is the scan's read buffer.
	scanBuf [scanPrefix]byte

	// interned holds one *Resolved per face and synthesis.
	interned map[internKey]*Resolved

	// byPS maps PostScript names to families (FamilyOf), made once.
	psOnce sync.Once
	byPS   map[string]string

	// web are a document's web faces by folded family (WithWebFaces).
	web map[string][]*face
}

// face is one face of one font file: what the scan learned, and the parsed
// font once something needs it.
type face struct {
	lib   *Library
	order int // position in the scan, fontconfig's tie-break
	path  string
	index int
	info  *sfntInfo
	// data, key and web are a web face's: the font file in memory, its
	// key for the writer, its @font-face descriptors.
	data []byte
	key  string
	web  *webDesc

	folded   []string // foldFamily of each family name
	weight   int      // CSS weight, from OS/2 usWeightClass
	fcWeight float64  // fontconfig's weight scale
	fcWidth  float64  // fontconfig's width scale (percent)
	slant    int      // fontconfig: 0 roman, 100 italic, 110 oblique

	covOnce sync.Once
	cov     coverage
	english bool

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
		// fontconfig (and so Chromium, started with the same environment)
		// reads FONTCONFIG_FILE when it is set.
		conf := os.Getenv("FONTCONFIG_FILE")
		if conf == "" {
			conf = "/etc/fonts/fonts.conf"
		} else if !filepath.IsAbs(conf) {
			conf = filepath.Join("/etc/fonts", conf)
		}
		cfg := loadFcConfigFile(conf)
		dirs := cfg.dirs
		if len(dirs) == 0 {
			dirs = DefaultDirs
		}
		defaultLib, defaultErr = newLibrary(dirs, cfg)
	})
	return defaultLib, defaultErr
}

// HasLocal reports whether the library holds a face whose full name or
// PostScript name is name, ignoring case: the face an @font-face local()
// names (Chromium looks local() names up by those two on Linux).
func (l *Library) HasLocal(name string) bool {
	for _, fc := range l.faces {
		if fc.info == nil {
			continue
		}
		if strings.EqualFold(fc.info.fullName, name) || strings.EqualFold(fc.info.postScriptName, name) {
			return true
		}
	}
	return false
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
		resolved: make(map[queryKey]resolution),
		fallback: make(map[rune]*face),
		families: make(map[familyKey]*face),
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
	// One read usually holds the directory and the small tables the scan
	// wants; prefixReader reads the rest from the file.
	r := &prefixReader{f: f}
	n, _ := io.ReadFull(f, l.scanBuf[:])
	r.prefix = l.scanBuf[:n]
	offs, err := readSFNTOffsets(r)
	if err != nil {
		return
	}
	for i, off := range offs {
		info, err := readSFNTInfo(r, off)
		if err != nil {
			continue
		}
		fc := &face{lib: l, order: len(l.faces), path: path, index: i, info: info}
		fc.classify()
		l.faces = append(l.faces, fc)
		for _, fam := range info.families {
			k := foldFamily(fam)
			fc.folded = append(fc.folded, k)
			l.byFamily[k] = append(l.byFamily[k], fc)
		}
	}
}

// classify sets the face's weight, width and slant as fontconfig's
// FcFreeTypeQuery does: weight and width from OS/2, else from the style
// name; slant from the style name ("Italic", "Oblique"), else from the
// italic bit.
func (fc *face) classify() {
	in := fc.info
	fc.weight, fc.fcWidth, fc.slant = -1, -1, -1
	if in.hasOS2 && in.os2Version != 0xFFFF {
		if w := int(in.weightClass); w > 0 {
			if w < 10 {
				w *= 100 // some fonts give the class, 1 to 9
			}
			fc.weight = min(w, 1000)
		}
		if in.widthClass >= 1 && in.widthClass <= 9 {
			fc.fcWidth = fcWidthFromClass[in.widthClass]
		}
	}
	style := strings.ToLower(in.subfamily)
	if fc.weight < 0 {
		fc.weight = 400
		for _, w := range styleWeights {
			if strings.Contains(style, w.name) {
				fc.weight = w.weight
				break
			}
		}
	}
	if fc.fcWidth < 0 {
		fc.fcWidth = 100
		for _, w := range styleWidths {
			if strings.Contains(style, w.name) {
				fc.fcWidth = w.width
				break
			}
		}
	}
	switch {
	case strings.Contains(style, "italic") || strings.Contains(style, "kursiv"):
		fc.slant = 100
	case strings.Contains(style, "oblique"):
		fc.slant = 110
	case in.hasOS2 && in.fsSelection&1 != 0, !in.hasOS2 && in.macStyle&2 != 0:
		fc.slant = 100
	default:
		fc.slant = 0
	}
	fc.fcWeight = fcWeightFromOT(float64(fc.weight))
}

// styleWeights and styleWidths are fontconfig's style-name keywords, for
// faces without an OS/2 table (longest first, as "extrabold" holds "bold").
var styleWeights = []struct {
	name   string
	weight int
}{
	{"thin", 100}, {"extralight", 200}, {"ultralight", 200}, {"demilight", 350}, {"semilight", 350},
	{"light", 300}, {"book", 380}, {"regular", 400}, {"normal", 400}, {"medium", 500},
	{"demibold", 600}, {"demi", 600}, {"semibold", 600}, {"extrabold", 800}, {"superbold", 800},
	{"ultrabold", 800}, {"bold", 700}, {"ultrablack", 1000}, {"superblack", 1000}, {"extrablack", 1000},
	{"ultra", 800}, {"black", 900}, {"heavy", 900},
}

var styleWidths = []struct {
	name  string
	width float64
}{
	{"ultracondensed", 50}, {"extracondensed", 63}, {"semicondensed", 87}, {"condensed", 75},
	{"normal", 100}, {"semiexpanded", 113}, {"extraexpanded", 150}, {"ultraexpanded", 200}, {"expanded", 125},
	{"extended", 125},
}

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
		data, key := fc.data, fc.key
		if data == nil {
			var err error
			if data, err = os.ReadFile(fc.path); err != nil {
				fc.err = err
				return
			}
			key = fmt.Sprintf("%s#%d", fc.path, fc.index)
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
			Key:            key,
			Data:           data,
			Index:          fc.index,
			PostScriptName: ps,
			Family:         in.families[0],
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

// styleName is the face's style as fontconfig lists it first.
func (fc *face) styleName() string { return fc.info.subfamily }

// scanPrefix is how much of each font file the scan reads at once.
const scanPrefix = 32 << 10

// prefixReader serves reads from a file's first bytes when it can.
type prefixReader struct {
	f      *os.File
	prefix []byte
}

func (p *prefixReader) ReadAt(b []byte, off int64) (int, error) {
	if off >= 0 && off+int64(len(b)) <= int64(len(p.prefix)) {
		return copy(b, p.prefix[off:]), nil
	}
	return p.f.ReadAt(b, off)
}
