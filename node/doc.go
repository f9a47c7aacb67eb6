// Package node is one Platen node: it opens the data folder, starts the raft
// replica over the Pebble store, the actor system and the HTTP surface, makes
// the first organisation on an empty folder, and stops them in order.
//
// A node on its own is the embedded default and a complete product. The same
// wiring is what a cluster member runs; joining arrives with the cluster work.
package node
