// Package cluster is how nodes agree: who is a member, which node owns an org
// or endpoint actor (rendezvous hashing over live members, computed locally on
// every node), and the raft log through which every state change is made durable.
//
// On a single node the member list is the node itself, so placement answers
// itself and raft is one voter, bootstrapped on first start. Nothing here
// assumes that stays true: membership and joining arrive with the cluster work,
// and callers already ask placement before they act.
package cluster
