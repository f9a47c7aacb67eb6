package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/platen/platen/client"
)

const keysHelp = `Usage: platen keys VERB [ARGS] [flags]

  list                           the organisation's API keys, newest first
  create NAME --scope S…         a key with these scopes (repeat --scope, or
                                 separate with commas); its value is shown once
  revoke ID                      revoke a key: it stops working at once

A key gives only scopes it holds itself, and managing keys needs keys.read
and keys.write. Every verb takes --url, --key, --profile and --json.
`

func keys(ctx context.Context, args []string, out io.Writer) error {
	return subcommands(ctx, "keys", keysHelp, map[string]verb{
		"list": keysList, "create": keysCreate, "revoke": keysRevoke,
	}, args, out)
}

const keysListUsage = `Usage: platen keys list [--json]

Lists the organisation's API keys, newest first; keys are shown by prefix.
`

func keysList(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("keys list")
	pos, err := parseFlags(fs, keysListUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(keysListUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	list, err := c.Keys.List(ctx)
	if err != nil {
		return apiError(err)
	}
	if g.json {
		if list == nil {
			list = []client.Key{}
		}
		return printJSON(out, list)
	}
	var rows [][]string
	for _, k := range list {
		state := "active"
		if k.RevokedAt != nil {
			state = "revoked " + whenPtr(k.RevokedAt)
		}
		rows = append(rows, []string{k.ID, k.Name, k.Prefix + "…", strings.Join(k.Scopes, ","), state, when(k.CreatedAt), orDash(whenPtr(k.LastUsedAt))})
	}
	table(out, []string{"ID", "NAME", "KEY", "SCOPES", "STATE", "CREATED", "LAST USED"}, rows)
	return nil
}

const keysCreateUsage = `Usage: platen keys create NAME --scope S [--scope S…] [--json]

Creates an API key with the scopes named (documents.generate, documents.read,
templates.read, templates.write, webhooks.read, webhooks.write, wallet.read,
keys.read, keys.write), or "all": every scope the calling key holds. A key
gives only scopes it holds. The key's value is printed this once.
`

func keysCreate(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("keys create")
	var scopes stringList
	fs.Var(&scopes, "scope", "a scope the key holds (repeatable)")
	pos, err := parseFlags(fs, keysCreateUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 || len(scopes) == 0 {
		return usageError(keysCreateUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	if len(scopes) == 1 && scopes[0] == "all" {
		// Every scope the calling key holds: all a key may give.
		idx, err := c.Index(ctx)
		if err != nil {
			return apiError(err)
		}
		scopes = nil
		for _, s := range idx.Scopes {
			scopes = append(scopes, s.Scope)
		}
	}
	k, err := c.Keys.Create(ctx, client.CreateKeyRequest{Name: pos[0], Scopes: scopes})
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, k)
	}
	fields(out, "Key", k.ID, "Name", k.Name, "Scopes", strings.Join(k.Scopes, ", "))
	fmt.Fprintf(out, "\n%s\n\nThis is the key's value, shown once: keep it now.\n", k.Key)
	return nil
}

const keysRevokeUsage = `Usage: platen keys revoke ID [--json]

Revokes a key: requests with it are refused at once.
`

func keysRevoke(ctx context.Context, args []string, out io.Writer) error {
	fs, g := newFlags("keys revoke")
	pos, err := parseFlags(fs, keysRevokeUsage, args, out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(keysRevokeUsage)
	}
	c, _, err := connect(g)
	if err != nil {
		return err
	}
	k, err := c.Keys.Revoke(ctx, pos[0])
	if err != nil {
		return apiError(err)
	}
	if g.json {
		return printJSON(out, k)
	}
	fmt.Fprintf(out, "Revoked %s (%s).\n", k.ID, k.Name)
	return nil
}
