package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/platen/platen/client"
)

const loginUsage = `Usage: platen login --url URL --key KEY [--profile NAME] [--default]

Checks the key against the node (GET /v1) and saves URL and KEY as a profile
of the profile file ($PLATEN_CONFIG, or config.json in the user's configuration
folder), readable by you only. The profile is "default" unless --profile names
another; it becomes the default profile when there is none, or with --default.
`

func login(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("login")
	makeDefault := fs.Bool("default", false, "make this profile the default")
	pos, err := parseFlags(fs, loginUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 || g.url == "" || g.key == "" {
		return usageError(loginUsage)
	}
	name := g.profile
	if name == "" {
		name = "default"
	}
	url := strings.TrimSuffix(g.url, "/")
	idx, err := client.New(url, g.key, client.WithUserAgent("platen-cli/"+version)).Index(ctx)
	if _, refused := errors.AsType[*client.Error](err); refused {
		return fmt.Errorf("the key was not accepted by %s: %w", url, apiError(err))
	} else if err != nil {
		return fmt.Errorf("cannot reach %s: %v", url, strings.TrimPrefix(err.Error(), "platen: "))
	}
	isDefault, err := saveProfile(name, Profile{URL: url, Key: g.key}, *makeDefault)
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
		fmt.Fprintf(out, "No profiles in %s: 'platen login --url URL --key KEY' saves one.\n", path)
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
