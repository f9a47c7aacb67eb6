package main

import (
	"fmt"
	"io"
	"net"
	"regexp"

	"github.com/platen/platen/node"
)

// devMode sets cfg up for development on this machine (`platen serve
// --dev`): webhook deliveries may reach loopback and private addresses and
// trust the development CA (devca.go), made now if missing, so that `platen
// webhooks listen` receives them. It says so on w.
func devMode(cfg *node.Config, w io.Writer) error {
	dir, err := configDir()
	if err != nil {
		return &node.StartError{Flag: "--dev", Err: err}
	}
	ca, made, err := ensureDevCA(dir)
	if err != nil {
		return &node.StartError{Flag: "--dev", Err: fmt.Errorf("the development CA: %w", err)}
	}
	cfg.WebhookAllowPrivate = true
	if cfg.WebhookCAFile == "" {
		cfg.WebhookCAFile = ca.CertPath
	}
	fmt.Fprintf(w, `
*** DEVELOPMENT MODE (--dev): not for production. ***
    Webhooks may reach loopback and private addresses, and deliveries trust
    the development CA %s%s.
`, cfg.WebhookCAFile, map[bool]string{true: " (made now)", false: ""}[made])
	return nil
}

// firstKeyLine is the line of a first start's output that holds the key
// (node.firstStart), as internal/testnode reads it too.
var firstKeyLine = regexp.MustCompile(`(?m)^\s+(plt_[A-Za-z0-9]{43})$`)

// cliReady leaves the command line ready for the node at url: on a first
// start, when save is set, it saves the key the node printed
// (saveFirstKey); when no profile names url and none was saved, it says how
// to save one (the key was printed once, at the first start).
func cliReady(printed, url string, save bool, w io.Writer) error {
	if save && firstKeyLine.MatchString(printed) {
		return saveFirstKey(printed, url, w)
	}
	pf, _, err := loadProfiles()
	if err != nil {
		return err
	}
	for _, p := range pf.Profiles {
		if p.URL == url {
			return nil
		}
	}
	if firstKeyLine.MatchString(printed) {
		fmt.Fprintf(w, "To use the command line with this node, save the key above:\n  platen login --url %s --profile local --default\n\n", url)
		return nil
	}
	fmt.Fprintf(w, "\nThe command line has no profile for this node. Its API key was printed once, at the data folder's\nfirst start; save it with:\n  platen login --url %s --profile local --default\n(an owner can make a new key in the dashboard, or an operator with platen admin keys create).\n\n", url)
	return nil
}

// loopbackAddr reports whether a host:port listens on a loopback address.
func loopbackAddr(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback() || host == "localhost"
}

// saveFirstKey saves the first key a node printed on its first start, if
// it printed one, as the profile "local" for url, the default profile when
// there is none, and says so on w.
func saveFirstKey(printed, url string, w io.Writer) error {
	m := firstKeyLine.FindStringSubmatch(printed)
	if m == nil {
		return nil // not a first start
	}
	isDefault, err := saveProfile("local", Profile{URL: url, Key: m[1]}, false)
	if err != nil {
		return err
	}
	path, _ := configPath()
	how := "use it with --profile local"
	if isDefault {
		how = "the default profile"
	}
	fmt.Fprintf(w, "\nSaved this node and its first key as the CLI profile \"local\" (%s) in %s.\nTry: platen templates list\n\n", how, path)
	return nil
}
