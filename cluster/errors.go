package cluster

import "github.com/platen/platen/internal/fault"

func init() {
	fault.Register("cluster.not_leader", ErrNotLeader)
	fault.Register("cluster.outcome_unknown", ErrOutcomeUnknown)
}
