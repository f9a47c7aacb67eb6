// Command platen runs a Platen node and talks to one.
//
//	platen serve [flags]          start a node (flags have PLATEN_ environment twins)
//	platen admin [flags] VERB …   call the operator API
//	platen render DIR [DATA] -o F render a template folder to a PDF, no server
//	platen watch --key K          print the change feed, resuming from its cursor
//	platen cluster-key            print a new cluster key
//	platen version                print the version
//
// This file only wires; each capability lives in its package.
package main

import (
	"fmt"
	"os"
	"strings"

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
		usage()
	default:
		fmt.Fprintf(os.Stderr, "platen: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err != nil {
		// One line, the last on stderr: what went wrong and, for serve, the
		// flag that mends it (node.StartError).
		fmt.Fprintln(os.Stderr, "platen:", strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " "))
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `Platen renders PDF documents from templates and data.

Usage:
  platen serve [flags]          start a node; 'platen serve -h' lists the flags
  platen admin [flags] VERB …   call the operator API; 'platen admin help' lists the verbs
  platen render DIR [DATA.json] -o out.pdf
                                render a template folder to a PDF, with no server
  platen watch --key KEY [--events K,…] [--since N]
                                print the change feed, one JSON line an event
  platen cluster-key            print a new cluster key, for every node of a cluster
  platen version                print the version
`)
}
