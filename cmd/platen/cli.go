package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/platen/platen/client"
)

// The commands for people: each parses its flags (globals.go's --url,
// --key, --profile, --json among them), calls the API through package
// client, and prints a table, or the API's data with --json.

// connect resolves g and makes a client; the command needs a key.
func connect(g *globals) (*client.Client, target, error) {
	t, err := g.resolve()
	if err != nil {
		return nil, t, err
	}
	if err := t.needKey(); err != nil {
		return nil, t, err
	}
	return client.New(t.URL, t.Key, client.WithUserAgent("platen-cli/"+version)), t, nil
}

// apiError words a refusal of the API as one line: its code, status and
// message (which names the field), or err as it is.
func apiError(err error) error {
	var e *client.Error
	if !errors.As(err, &e) {
		return err
	}
	msg := e.Message
	if e.Field != "" && !strings.HasPrefix(msg, e.Field) {
		msg = e.Field + ": " + msg
	}
	return fmt.Errorf("%s (HTTP %d): %s", e.Code, e.Status, msg)
}

// isCode reports whether err is a refusal with code.
func isCode(err error, code string) bool {
	var e *client.Error
	return errors.As(err, &e) && e.Code == code
}

// stringList is a flag given many times or once with commas.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// verb is a command for people: it runs with args after its name and
// prints on out.
type verb func(ctx context.Context, args []string, out io.Writer) error

// people are the commands for people, by name.
var people = map[string]verb{
	"login": login, "profiles": profiles, "templates": templates, "generate": generate,
	"documents": documents, "keys": keys, "webhooks": webhooks,
}

// subcommands runs the verb args[0] of a group, or prints the group's help.
func subcommands(ctx context.Context, group, help string, verbs map[string]verb, args []string, out io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(out, help)
		return nil
	}
	run, ok := verbs[args[0]]
	if !ok {
		return fmt.Errorf("unknown command %q; 'platen %s help' lists them", group+" "+args[0], group)
	}
	return run(ctx, args[1:], out)
}

// newFlags is a flag set for a command with the global flags.
func newFlags(name string) (*flag.FlagSet, *globals) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return fs, addGlobals(fs)
}
