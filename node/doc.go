// Package node is one Platen node: it opens the data folder, starts the raft
// replica over the Pebble store, the actor system, the engines and the HTTP
// surface, makes the first organisation on an empty folder, runs the janitor
// (stranded documents and deliveries resumed, expired files deleted), and
// stops them all in order on SIGTERM.
//
// A node on its own is the embedded default and a complete product. Started
// with a cluster key it is a cluster peer (cluster.go): it opens the TLS
// cluster port (raft and the peer API), gossips its membership and load,
// places org and endpoint actors by rendezvous hashing over the live members,
// forwards asks to their owners, and copies blobs to a second node. The
// wiring is the same either way; docs/architecture.md draws it.
//
// Nothing imports this package but cmd/platen, the test helpers and the load
// programs.
package node
