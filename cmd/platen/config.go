package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The CLI's configuration: which node and which key a command uses. Each
// comes from, first to last: the flag (--url, --key), the environment
// (PLATEN_URL, PLATEN_API_KEY), then a profile of the profile file. The
// profile is --profile, else PLATEN_PROFILE, else the file's default.

// defaultURL is the node a command talks to when nothing names one: the
// address `platen serve` listens on by default.
const defaultURL = "http://127.0.0.1:8080"

// Profile is a named node and key.
type Profile struct {
	URL string `json:"url"`
	Key string `json:"key"`
}

// ProfileFile is the profile file: named profiles and the default one's name.
type ProfileFile struct {
	Default  string              `json:"default,omitempty"`
	Profiles map[string]*Profile `json:"profiles"`
}

// configPath is the profile file: $PLATEN_CONFIG, or config.json in the
// user's configuration folder (~/.config/platen on Linux).
func configPath() (string, error) {
	if p := os.Getenv("PLATEN_CONFIG"); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration folder (%w); set PLATEN_CONFIG to a file path", err)
	}
	return filepath.Join(dir, "platen", "config.json"), nil
}

// configDir is the folder of the profile file, which also keeps the
// development CA.
func configDir() (string, error) {
	p, err := configPath()
	if err != nil {
		return "", err
	}
	return filepath.Dir(p), nil
}

// loadProfiles reads the profile file; a missing file is an empty one.
func loadProfiles() (*ProfileFile, string, error) {
	path, err := configPath()
	if err != nil {
		return nil, "", err
	}
	pf := &ProfileFile{Profiles: map[string]*Profile{}}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return pf, path, nil
	}
	if err != nil {
		return nil, path, fmt.Errorf("the profile file: %w", err)
	}
	if err := json.Unmarshal(raw, pf); err != nil {
		return nil, path, fmt.Errorf("the profile file %s is not valid JSON: %v", path, err)
	}
	if pf.Profiles == nil {
		pf.Profiles = map[string]*Profile{}
	}
	return pf, path, nil
}

// save writes the profile file readable by its owner only (it holds keys),
// in a folder of the owner's only, replacing it whole.
func (pf *ProfileFile) save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(pf, "", "  ")
	if err != nil {
		return err
	}
	// A new file of our own (O_EXCL, 0600 from the start): a fixed name
	// beside the profile file could be a file or symlink someone else left
	// there, which the keys would be written into.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(append(raw, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// saveProfile stores p under name, making it the default when there is none
// (or when makeDefault). It returns whether p is now the default.
func saveProfile(name string, p Profile, makeDefault bool) (bool, error) {
	pf, path, err := loadProfiles()
	if err != nil {
		return false, err
	}
	pf.Profiles[name] = &p
	if pf.Default == "" || pf.Profiles[pf.Default] == nil || makeDefault {
		pf.Default = name
	}
	return pf.Default == name, pf.save(path)
}

// globals are the flags every command for people takes.
type globals struct {
	url, key, profile string
	json              bool
}

func addGlobals(fs *flag.FlagSet) *globals {
	g := &globals{}
	fs.StringVar(&g.url, "url", "", "node address (PLATEN_URL, the profile's, or "+defaultURL+")")
	fs.StringVar(&g.key, "key", "", "API key (PLATEN_API_KEY, or the profile's)")
	fs.StringVar(&g.profile, "profile", "", "profile of the profile file (PLATEN_PROFILE, or the file's default)")
	fs.BoolVar(&g.json, "json", false, "print the API's data as JSON")
	return g
}

// target is where a command goes, and where each part came from.
type target struct {
	URL, Key         string
	URLFrom, KeyFrom string
	Profile          string
}

// resolve applies the precedence flag > environment > profile > default.
func (g *globals) resolve() (target, error) {
	t := target{}
	pick := func(flagV, envName, profV string, profName string) (string, string) {
		if flagV != "" {
			return flagV, "flag"
		}
		if v := os.Getenv(envName); v != "" {
			return v, envName
		}
		if profV != "" {
			return profV, "profile " + profName
		}
		return "", ""
	}
	name := g.profile
	if name == "" {
		name = os.Getenv("PLATEN_PROFILE")
	}
	var prof Profile
	if g.url == "" || g.key == "" || name != "" {
		pf, path, err := loadProfiles()
		if err != nil {
			return t, err
		}
		explicit := name != ""
		if name == "" {
			name = pf.Default
		}
		if p := pf.Profiles[name]; p != nil {
			prof = *p
			t.Profile = name
		} else if explicit {
			return t, fmt.Errorf("no profile %q in %s; 'platen profiles' lists them, 'platen login' adds one", name, path)
		}
	}
	t.URL, t.URLFrom = pick(g.url, "PLATEN_URL", prof.URL, t.Profile)
	if t.URL == "" {
		t.URL, t.URLFrom = defaultURL, "default"
	}
	t.URL = strings.TrimSuffix(t.URL, "/")
	t.Key, t.KeyFrom = pick(g.key, "PLATEN_API_KEY", prof.Key, t.Profile)
	return t, nil
}

// needKey is target's key, or an error saying how to give one.
func (t target) needKey() error {
	if t.Key == "" {
		return errors.New("no API key: pass --key, set PLATEN_API_KEY, or save a profile with 'platen login --url URL'")
	}
	return nil
}

// maskKey shows a key's prefix and last four characters.
func maskKey(k string) string {
	if len(k) <= 12 {
		return strings.Repeat("•", len(k))
	}
	return k[:4] + "…" + k[len(k)-4:]
}

// profileNames are pf's profile names, sorted.
func (pf *ProfileFile) names() []string {
	out := make([]string, 0, len(pf.Profiles))
	for n := range pf.Profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
