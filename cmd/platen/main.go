// Command platen runs a Platen node and talks to one: commands for people
// on the Go client (package client), and the operator's. `platen help` lists
// them; docs/cli.md documents each.
//
// This file only wires; each capability lives in its package.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/platen/platen/cluster"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "login", "profiles", "templates", "generate", "documents", "keys", "webhooks":
		// Ctrl-C or SIGTERM ends a command for people through its context
		// (webhooks listen deletes its endpoint). The other commands keep
		// the signals' default, ending the process (watch, render), or
		// handle their own (serve): catching the signals for them made
		// Ctrl-C do nothing.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err = people[os.Args[1]](ctx, os.Args[2:], os.Stdout)
		stop()
	case "serve":
		err = serve(os.Args[2:])
	case "admin":
		err = admin(os.Args[2:], os.Stdout)
	case "render":
		err = renderLocal(os.Args[2:])
	case "watch":
		err = watch(os.Args[2:], os.Stdout)
	case "cluster-key":
		fmt.Println(cluster.NewKey())
	case "version", "--version", "-v":
		fmt.Println("platen", version)
	case "help", "-h", "--help":
		if len(os.Args) > 2 && people[os.Args[2]] != nil {
			err = people[os.Args[2]](context.Background(), []string{"-h"}, os.Stdout)
			break
		}
		fmt.Fprint(os.Stdout, helpText)
	default:
		fmt.Fprintf(os.Stderr, "platen: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if errors.Is(err, errHelp) {
		err = nil
	}
	if err != nil {
		// One line, the last on stderr: what went wrong and, for serve, the
		// flag that mends it (node.StartError).
		// The client's own errors start "platen: " too.
		msg := strings.TrimPrefix(strings.TrimSpace(err.Error()), "platen: ")
		fmt.Fprintln(os.Stderr, "platen:", strings.ReplaceAll(msg, "\n", " "))
		os.Exit(1)
	}
}

func usage() { fmt.Fprint(os.Stderr, helpText) }

const helpText = `Platen renders PDF documents from templates and data.

Usage: platen COMMAND [ARGS] [flags]; 'platen help COMMAND' or -h shows a command's flags.

Working with a node (the API, with a key):
  login --url URL               check a key (PLATEN_API_KEY, stdin or a prompt)
                                and save it as a profile
  profiles                      the saved profiles
  templates list|pull|push|activate|starters|copy
                                templates, and a template as a folder of files
  generate TEMPLATE [--data FILE] [-o out.pdf] [--dry-run]
                                make a document, or quote one
  documents list|get|download   documents, their render reports and PDFs
  keys list|create|revoke       the organisation's API keys
  webhooks list|create|delete|deliveries|ping|listen
                                webhook endpoints, and a local receiver
  watch [--events K,…]          print the change feed, one JSON line an event

  These take --url, --key, --profile and --json. The node and key come from the
  flags, else PLATEN_URL and PLATEN_API_KEY, else a profile (--profile,
  PLATEN_PROFILE, or the default one) of $PLATEN_CONFIG or the user's platen/config.json.

Running a node (the operator):
  serve [flags]                 start a node; 'platen serve -h' lists the flags;
                                --dev for development on this machine
  admin [flags] VERB …          call the operator API; 'platen admin help' lists the verbs
  render DIR [DATA.json] -o out.pdf
                                render a template folder to a PDF, with no server
  cluster-key                   print a new cluster key, for every node of a cluster
  version                       print the version
`
