package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/platen/platen/client"
)

const loginUsage = `Usage: platen login --url URL [--key -] [--profile NAME] [--default]

Checks a key against the node (GET /v1) and saves URL and the key as a profile
of the profile file ($PLATEN_CONFIG, or config.json in the user's configuration
folder), readable by you only. The profile is "default" unless --profile names
another; it becomes the default profile when there is none, or with --default.

The key comes from PLATEN_API_KEY, else from standard input (its first line)
when --key is - or absent and standard input is not a terminal, else from a
prompt. --key KEY works too, but shows the key to anyone who can list
processes (ps): prefer the others.
`

// The login's ways to the person at the keyboard, replaced by tests.
var (
	loginStdin    io.Reader = os.Stdin
	loginStderr   io.Writer = os.Stderr
	stdinTerminal           = func() bool {
		fi, err := os.Stdin.Stat()
		return err == nil && fi.Mode()&os.ModeCharDevice != 0
	}
)

// loginKey is the key to log in with: --key (unless -), PLATEN_API_KEY,
// standard input's first line when it is not a terminal, else a prompt's
// answer.
func loginKey(flagKey string) (string, error) {
	if flagKey != "" && flagKey != "-" {
		return flagKey, nil
	}
	if flagKey == "" {
		if k := os.Getenv("PLATEN_API_KEY"); k != "" {
			return k, nil
		}
	}
	if stdinTerminal() {
		fmt.Fprint(loginStderr, "API key: ")
	}
	line, err := bufio.NewReader(loginStdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the key from standard input: %w", err)
	}
	if k := strings.TrimSpace(line); k != "" {
		return k, nil
	}
	return "", errors.New("no API key: set PLATEN_API_KEY, pipe it on standard input, or type it at the prompt")
}

// plainRemote reports whether u is plain http to a host that is not
// loopback: the key would cross the network readable.
func plainRemote(u string) bool {
	pu, err := url.Parse(u)
	if err != nil || !strings.EqualFold(pu.Scheme, "http") {
		return false
	}
	host := pu.Hostname()
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

func login(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("login")
	makeDefault := fs.Bool("default", false, "make this profile the default")
	pos, err := parseFlags(fs, loginUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 || g.url == "" {
		return usageError(loginUsage)
	}
	key, err := loginKey(g.key)
	if err != nil {
		return err
	}
	name := g.profile
	if name == "" {
		name = "default"
	}
	url := strings.TrimSuffix(g.url, "/")
	if plainRemote(url) {
		fmt.Fprintf(loginStderr, "platen: warning: %s is plain http to a host that is not this machine: the key crosses the network unencrypted\n", url)
	}
	idx, err := client.New(url, key, client.WithUserAgent("platen-cli/"+version)).Index(ctx)
	if _, refused := errors.AsType[*client.Error](err); refused {
		return fmt.Errorf("the key was not accepted by %s: %w", url, apiError(err))
	} else if err != nil {
		return fmt.Errorf("cannot reach %s: %v", url, strings.TrimPrefix(err.Error(), "platen: "))
	}
	isDefault, err := saveProfile(name, Profile{URL: url, Key: key}, *makeDefault)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(out, map[string]any{"profile": name, "default": isDefault, "url": url,
			"organisation": idx.Organisation, "organisationId": idx.OrganisationID, "plan": idx.Plan, "scopes": idx.Scopes})
	}
	scopes := make([]string, len(idx.Scopes))
	for i, s := range idx.Scopes {
		scopes[i] = s.Scope
	}
	path, _ := configPath()
	fmt.Fprintf(out, "Saved profile %q%s in %s.\n", name, map[bool]string{true: " (the default)", false: ""}[isDefault], path)
	fields(out, "Node", url, "Organisation", idx.Organisation+" ("+idx.OrganisationID+")", "Plan", idx.Plan,
		"Scopes", strings.Join(scopes, ", "))
	return nil
}

const profilesUsage = `Usage: platen profiles [--json]

Lists the profiles of the profile file, keys masked; * marks the default.
`

func profiles(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("profiles")
	pos, err := parseFlags(fs, profilesUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(profilesUsage)
	}
	pf, path, err := loadProfiles()
	if err != nil {
		return err
	}
	if g.json {
		type row struct {
			Name    string `json:"name"`
			URL     string `json:"url"`
			Key     string `json:"key"`
			Default bool   `json:"default"`
		}
		rows := []row{}
		for _, n := range pf.names() {
			rows = append(rows, row{n, pf.Profiles[n].URL, maskKey(pf.Profiles[n].Key), n == pf.Default})
		}
		return printJSON(out, rows)
	}
	if len(pf.Profiles) == 0 {
		fmt.Fprintf(out, "No profiles in %s: 'platen login --url URL' saves one.\n", path)
		return nil
	}
	var rows [][]string
	for _, n := range pf.names() {
		mark := ""
		if n == pf.Default {
			mark = "*"
		}
		rows = append(rows, []string{mark + n, pf.Profiles[n].URL, maskKey(pf.Profiles[n].Key)})
	}
	table(out, []string{"PROFILE", "URL", "KEY"}, rows)
	return nil
}
