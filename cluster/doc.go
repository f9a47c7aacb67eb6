// Package cluster is how nodes agree: who is a member (gossip with
// hashicorp/memberlist, each member's metadata carrying its load and
// readiness), which node owns an org or endpoint actor (rendezvous hashing
// over the live, ready members, computed locally on every node), the raft
// log through which every state change is made durable (hashicorp/raft over
// the Pebble log store), and the TLS cluster port that carries raft and the
// peer API, with a CA derived from the cluster key.
//
// On a single node the member list is the node itself, so placement answers
// itself and raft is one voter, bootstrapped on first start. In a cluster a
// node that joins is added as a voter by the leader, and a node gone for
// good is removed by the operator (docs/operator.md "Clusters").
package cluster
