package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/platen/platen/client"
)

const templatesHelp = `Usage: platen templates VERB [ARGS] [flags]

  list                  the organisation's templates
  pull SLUG DIR         write a version (the active one, or --version N) into
                        the folder DIR as files to edit (see docs/cli.md)
  push DIR              save the folder as the template's next version, showing
                        what changed; nothing is saved when nothing changed
  activate SLUG N       make version N the one that generates
  starters              the starter library: complete templates to copy
  copy STARTER [--slug S] [--name N]
                        copy a starter into the organisation, ready to generate

Every verb takes --url, --key, --profile and --json; -h shows a verb's flags.
`

func templates(ctx context.Context, args []string, out io.Writer) error {
	return subcommands(ctx, "templates", templatesHelp, map[string]verb{
		"list": templatesList, "pull": templatesPull, "push": templatesPush, "activate": templatesActivate,
		"starters": templatesStarters, "copy": templatesCopy,
	}, args, out)
}

const templatesListUsage = `Usage: platen templates list [--archived] [--json]

Lists the organisation's templates, newest first.
`

func templatesList(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("templates list")
	archived := fs.Bool("archived", false, "list the archived templates instead")
	pos, err := parseFlags(fs, templatesListUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(templatesListUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	all := []client.Template{}
	for cursor := ""; ; {
		page, err := c.Templates.List(ctx, client.ListTemplatesParams{Limit: 100, Cursor: cursor, Archived: *archived})
		if err != nil {
			return apiError(err)
		}
		all = append(all, page.Items...)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if g.json {
		return printJSON(out, all)
	}
	if len(all) == 0 {
		fmt.Fprintln(out, "No templates yet: 'platen templates push DIR' makes one from a folder.")
		return nil
	}
	var rows [][]string
	for _, t := range all {
		rows = append(rows, []string{t.Slug, t.Name, t.Kind, versionCell(t.ActiveVersion), versionCell(t.LatestVersion), when(t.UpdatedAt)})
	}
	table(out, []string{"SLUG", "NAME", "KIND", "ACTIVE", "LATEST", "UPDATED"}, rows)
	return nil
}

func versionCell(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

const templatesPullUsage = `Usage: platen templates pull SLUG DIR [--version N] [--json]

Writes a version of the template SLUG (the active one, else the latest, or
--version N) into the folder DIR, made if missing:

  platen.json     the template's slug, name and description, and the version
                  the files are (push compares the folder with it)
  template.html   the markup
  manifest.json   the manifest, without its data schema
  schema.json     the data schema (the manifest's dataSchema)
  sample.json     the sample data
  content.json    the static content
  assets/NAME     each asset, as its file

Files of DIR that are not the template's are left alone.
`

func templatesPull(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("templates pull")
	n := fs.Int("version", 0, "the version to pull (default: the active one)")
	pos, err := parseFlags(fs, templatesPullUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError(templatesPullUsage)
	}
	slug, dir := pos[0], pos[1]
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	_, meta, err := readFolder(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	t, err := c.Templates.Get(ctx, slug)
	if err != nil {
		return apiError(err)
	}
	if meta.Slug != "" && meta.Slug != t.Slug {
		return fmt.Errorf("%s holds the template %q (its %s); pull %s into another folder", dir, meta.Slug, metaFile, t.Slug)
	}
	if t.Kind == "pdf" {
		return fmt.Errorf("%s is a template made from an uploaded PDF: pull and push handle written templates; edit its fields in the dashboard", t.Slug)
	}
	version := *n
	if version == 0 {
		version = t.ActiveVersion
	}
	if version == 0 {
		version = t.LatestVersion
	}
	if version == 0 {
		return fmt.Errorf("%s has no version yet", t.Slug)
	}
	v, err := c.Templates.GetVersion(ctx, t.Slug, version)
	if err != nil {
		return apiError(err)
	}
	f, types, err := sourceFiles(versionSource(v))
	if err != nil {
		return err
	}
	meta = folderMeta{Slug: t.Slug, Name: t.Name, Description: t.Description, Version: v.Version}
	if len(types) > 0 {
		meta.AssetTypes = types
	}
	if err := writeFolder(dir, f, meta); err != nil {
		return err
	}
	names := fileNames(f)
	if g.json {
		return printJSON(out, map[string]any{"slug": t.Slug, "version": v.Version, "active": v.Active, "dir": dir, "files": names})
	}
	state := "not active"
	if v.Active {
		state = "active"
	}
	fmt.Fprintf(out, "Pulled %s version %d (%s) into %s: %s\n", t.Slug, v.Version, state, dir, strings.Join(names, ", "))
	return nil
}

// versionSource is a version's source as folder.go handles it.
func versionSource(v *client.Version) source {
	return source{HTML: v.HTML, Manifest: v.Manifest, Content: v.Content, SampleData: v.SampleData, Assets: v.Assets}
}

// fileNames are f's paths, sorted, with platen.json first.
func fileNames(f files) []string {
	names := []string{metaFile}
	var rest []string
	for p := range f {
		rest = append(rest, p)
	}
	sort.Strings(rest)
	return append(names, rest...)
}

const templatesPushUsage = `Usage: platen templates push DIR [--activate] [--slug SLUG] [--dry-run] [--json]

Saves the folder DIR (as 'platen templates pull' writes it) as the next version
of its template, and prints what changed, file by file, against the version the
folder was pulled or last pushed as (platen.json), else the active one. When
nothing changed it says so and saves nothing. A template whose slug does not
exist yet is created, its version 1 active. The slug is --slug, else
platen.json's, else the folder's name.

A version the API refuses is reported at the file that holds the field:
"template.html: does not compile: Parse error on line 3 …".
`

func templatesPush(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("templates push")
	activate := fs.Bool("activate", false, "make the new version the one that generates")
	slugFlag := fs.String("slug", "", "the template's slug (default: platen.json's, else the folder's name)")
	dry := fs.Bool("dry-run", false, "show what changed, save nothing")
	pos, err := parseFlags(fs, templatesPushUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(templatesPushUsage)
	}
	dir := pos[0]
	f, meta, err := readFolder(dir)
	if err != nil {
		return err
	}
	src, err := folderSource(f, meta.AssetTypes)
	if err != nil {
		return err
	}
	slug := *slugFlag
	if slug == "" {
		slug = meta.Slug
	}
	if slug == "" {
		abs, _ := filepath.Abs(dir)
		slug = filepath.Base(abs)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	vs := client.VersionSource{HTML: src.HTML, Manifest: src.Manifest, Content: src.Content, SampleData: src.SampleData, Assets: src.Assets}
	result := pushResult{Slug: slug, Changes: []fileChange{}}

	t, err := c.Templates.Get(ctx, slug)
	switch {
	case isCode(err, client.CodeNotFound):
		// A new template: its version 1 is the folder, active.
		result.Created = true
		result.Changes = changes(files{}, f)
		if *dry {
			return result.print(out, g.json, dir)
		}
		name := meta.Name
		if name == "" {
			name = slug
		}
		t, err = c.Templates.Create(ctx, client.CreateTemplateRequest{Name: name, Slug: slug, Description: meta.Description, VersionSource: vs})
		if err != nil {
			return refusal(err)
		}
		result.Version, result.Active = t.LatestVersion, t.ActiveVersion == t.LatestVersion
	case err != nil:
		return apiError(err)
	default:
		if t.Kind == "pdf" {
			return fmt.Errorf("%s is a template made from an uploaded PDF: push handles written templates", t.Slug)
		}
		base := meta.Version
		if base == 0 || meta.Slug != t.Slug || base > t.LatestVersion {
			base = t.ActiveVersion
		}
		if base == 0 {
			base = t.LatestVersion
		}
		result.Base, result.Latest = base, t.LatestVersion
		// Both sides as pull writes them: a starter's folder (its schema in
		// manifest.json) or JSON spaced otherwise is no change.
		nf, _, err := sourceFiles(src)
		if err != nil {
			return err
		}
		// The changes shown are against base. A folder equal to the latest
		// or the active version is no change either: a checkout whose
		// platen.json was not committed after its push (CI) saves nothing.
		same, seen := 0, map[int]bool{}
		for _, n := range []int{base, t.LatestVersion, t.ActiveVersion} {
			if n == 0 || seen[n] {
				continue
			}
			seen[n] = true
			bv, err := c.Templates.GetVersion(ctx, t.Slug, n)
			if err != nil {
				return apiError(err)
			}
			bf, _, err := sourceFiles(versionSource(bv))
			if err != nil {
				return err
			}
			ch := changes(bf, nf)
			if n == base {
				result.Changes = ch
			}
			if len(ch) == 0 {
				same = n
				break
			}
		}
		if same != 0 {
			result.Base, result.Changes = same, []fileChange{}
			if *dry {
				return result.print(out, g.json, dir)
			}
			if *activate && t.ActiveVersion != same {
				if _, err := c.Templates.ActivateVersion(ctx, t.Slug, same); err != nil {
					return apiError(err)
				}
				result.Activated = true
			}
			if meta.Slug != t.Slug || meta.Version != same {
				meta.Slug, meta.Version = t.Slug, same
				if err := writeMeta(dir, meta); err != nil {
					return err
				}
			}
			return result.print(out, g.json, dir)
		}
		if *dry {
			return result.print(out, g.json, dir)
		}
		v, err := c.Templates.CreateVersion(ctx, t.Slug, client.VersionRequest{VersionSource: vs, Activate: *activate})
		if err != nil {
			return refusal(err)
		}
		result.Version, result.Active = v.Version, v.Active
		if v.Engine != nil {
			result.Engine = v.Engine.Engine + ": " + v.Engine.Reason
		}
	}
	// The folder is now that version: the next push compares with it.
	meta.Slug, meta.Version = t.Slug, result.Version
	if meta.Name == "" {
		meta.Name = t.Name
	}
	if err := writeMeta(dir, meta); err != nil {
		return err
	}
	return result.print(out, g.json, dir)
}

// pushResult is what a push did, as --json prints it.
type pushResult struct {
	Slug string `json:"slug"`
	// Created is a template made by this push.
	Created bool `json:"created,omitempty"`
	// Base is the version the folder was compared with; Latest the
	// template's latest version before the push.
	Base   int `json:"base,omitempty"`
	Latest int `json:"latest,omitempty"`
	// Version is the version saved, 0 when none was.
	Version int  `json:"version"`
	Active  bool `json:"active"`
	// Activated is an unchanged folder's version made active (--activate).
	Activated bool         `json:"activated,omitempty"`
	Engine    string       `json:"engine,omitempty"`
	Changes   []fileChange `json:"changes"`
}

func (r pushResult) print(out io.Writer, asJSON bool, dir string) error {
	if asJSON {
		return printJSON(out, r)
	}
	if !r.Created && len(r.Changes) == 0 {
		fmt.Fprintf(out, "No changes: %s is %s version %d. Nothing saved.\n", dir, r.Slug, r.Base)
		if r.Activated {
			fmt.Fprintf(out, "Activated %s version %d.\n", r.Slug, r.Base)
		}
		return nil
	}
	if r.Base > 0 {
		fmt.Fprintf(out, "Changes against %s version %d:\n", r.Slug, r.Base)
		if r.Latest > r.Base {
			fmt.Fprintf(out, "(note: %s has versions up to %d since)\n", r.Slug, r.Latest)
		}
	}
	for _, c := range r.Changes {
		switch {
		case c.Diff != "" && c.Change == "changed":
			fmt.Fprint(out, c.Diff)
		case strings.HasPrefix(c.Path, assetsDir+"/") && c.Change == "changed":
			fmt.Fprintf(out, "%s: changed (%d → %d bytes)\n", c.Path, c.Bytes[0], c.Bytes[1])
		default:
			fmt.Fprintf(out, "%s: %s\n", c.Path, c.Change)
		}
	}
	switch {
	case r.Version == 0:
		fmt.Fprintln(out, "Dry run: nothing saved.")
	case r.Created:
		fmt.Fprintf(out, "Created the template %s with version %d (active).\n", r.Slug, r.Version)
	case r.Active:
		fmt.Fprintf(out, "Saved %s version %d (active).\n", r.Slug, r.Version)
	default:
		fmt.Fprintf(out, "Saved %s version %d (not active: 'platen templates activate %s %d', or push with --activate).\n", r.Slug, r.Version, r.Slug, r.Version)
	}
	if r.Engine != "" {
		fmt.Fprintf(out, "Engine for its sample data: %s\n", r.Engine)
	}
	return nil
}

// refusal is a refused version worded at the folder's file that holds the
// field at fault.
func refusal(err error) error {
	var e *client.Error
	if errors.As(err, &e) && e.Field != "" {
		return fmt.Errorf("%w (%s, HTTP %d)", inFolder(e.Field, e.Message), e.Code, e.Status)
	}
	return apiError(err)
}

// writeMeta rewrites the folder's platen.json alone.
func writeMeta(dir string, meta folderMeta) error {
	raw, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, metaFile), append(raw, '\n'), 0o644)
}

const templatesActivateUsage = `Usage: platen templates activate SLUG N [--json]

Makes version N of the template SLUG the one that generates.
`

func templatesActivate(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("templates activate")
	pos, err := parseFlags(fs, templatesActivateUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError(templatesActivateUsage)
	}
	n, err := strconv.Atoi(pos[1])
	if err != nil || n < 1 {
		return fmt.Errorf("the version %q is not a number from 1", pos[1])
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	t, err := c.Templates.ActivateVersion(ctx, pos[0], n)
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, t)
	}
	fmt.Fprintf(out, "%s version %d is active.\n", t.Slug, t.ActiveVersion)
	return nil
}

const templatesStartersUsage = `Usage: platen templates starters [--json]

Lists the starter library: complete templates, with schema and sample data,
that 'platen templates copy' copies into the organisation.
`

func templatesStarters(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("templates starters")
	pos, err := parseFlags(fs, templatesStartersUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(templatesStartersUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	list, err := c.Templates.Library(ctx)
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, list)
	}
	var rows [][]string
	for _, s := range list {
		rows = append(rows, []string{s.Slug, s.Name, s.Description})
	}
	table(out, []string{"STARTER", "NAME", "DESCRIPTION"}, rows)
	return nil
}

const templatesCopyUsage = `Usage: platen templates copy STARTER [--slug SLUG] [--name NAME] [--json]

Copies a starter of the library into the organisation as a template (slug
SLUG, default the starter's) whose version 1 is active and generates at once.
`

func templatesCopy(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("templates copy")
	slug := fs.String("slug", "", "the new template's slug (default: the starter's)")
	name := fs.String("name", "", "the new template's name (default: the starter's)")
	pos, err := parseFlags(fs, templatesCopyUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(templatesCopyUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	t, err := c.Templates.CopyStarter(ctx, pos[0], client.CopyStarterRequest{Slug: *slug, Name: *name})
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, t)
	}
	fmt.Fprintf(out, "Copied the starter %s as the template %s (version %d, active).\n", pos[0], t.Slug, t.ActiveVersion)
	return nil
}
