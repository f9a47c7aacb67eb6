package cluster

import (
	"fmt"
	"time"
)

// Timings are how fast the cluster tells a dead node from a slow one: raft's
// election timeouts and memberlist's failure detection. Short timings move a
// dead leader's or owner's work sooner; too short for the network, and a
// slow heartbeat starts an election nobody needed. The profile fits them to
// where the nodes run (docs/operator.md "Failover").
type Timings struct {
	// Heartbeat is how long a follower hears nothing from the leader before
	// it stands for election (raft's HeartbeatTimeout; it waits between one
	// and two of them). The leader sends a heartbeat every tenth of it.
	Heartbeat time.Duration
	// Election is how long a candidate waits for votes before it stands
	// again (raft's ElectionTimeout, randomised the same way).
	Election time.Duration
	// LeaderLease is how long a leader goes without hearing from a quorum
	// before it steps down (raft's LeaderLeaseTimeout; at most Heartbeat).
	LeaderLease time.Duration
	// Commit is the longest a follower waits to hear that an entry it holds
	// is committed when no new entry comes (raft's CommitTimeout): a write
	// forwarded from a follower is answered once the follower has applied
	// it, so this bounds that wait.
	Commit time.Duration
	// ProbeInterval is how often memberlist probes a random member, and
	// ProbeTimeout how long it waits for the answer before it asks others
	// to probe it.
	ProbeInterval, ProbeTimeout time.Duration
	// SuspicionMult scales how long a suspected member has to refute it
	// before it is declared dead (SuspicionMult × ProbeInterval at three
	// nodes, a little more at more).
	SuspicionMult int
	// GossipInterval is how often gossip spreads news (a death, a restarted
	// node's readiness) to a few members.
	GossipInterval time.Duration
}

// Timing profiles, for --cluster-timings.
const (
	ProfileLAN = "lan"
	ProfileWAN = "wan"
)

// LANTimings are the defaults: nodes on one host or one LAN, where a round
// trip takes well under a millisecond and a pause of a quarter second means
// a dead or starved process, not the network. A dead leader whose port
// refuses connections is replaced about half a second after it died
// (Replicator.watchDeadLeader), one that hangs in one to two seconds; a
// dead actor owner is noticed at the first refused connection, and by
// gossip within about two seconds.
func LANTimings() Timings {
	return Timings{
		// A follower stands after 500-1000 ms of silence: fifty missed
		// heartbeats. Shorter (250 ms) was measured to start elections
		// nobody needed on a host whose cores were shared by many busy
		// processes (load 24 on 2 cores), where a process waits hundreds of
		// milliseconds for a core; raft's own 1 s makes a leader's death
		// cost two to three seconds of writes.
		Heartbeat: 500 * time.Millisecond,
		// A split vote is settled after another 500-1000 ms.
		Election: 500 * time.Millisecond,
		// A leader cut off from its quorum stops leading within 400 ms,
		// before the others elect another. It is also how long followers
		// wait before they stand when the leader's port refuses
		// connections (a dead process, Replicator.watchDeadLeader): raft
		// allows no heartbeat timeout shorter than the lease. Shorter
		// leases make a leader starved of a core for that long step down.
		LeaderLease: 400 * time.Millisecond,
		// A forwarded write's follower hears of its commit within 5-10 ms
		// when no new entry brings the news sooner (raft's 50 ms otherwise
		// adds up to that to every write made through a follower, and a
		// document waited for through a follower waits for it once at the
		// owner and once where it was asked). Measured with three peers in
		// one process (bench/onewrite -nodes 3, one client): a one-page
		// document's p50 is 40 ms at 20 ms and 17 ms at 5 ms; the idle
		// cluster's CPU goes from 4.7 % to 7.1 % of a core.
		Commit: 5 * time.Millisecond,
		// Probes are tiny and peers near: one every half second, answered
		// within 200 ms (a loaded host's pause included).
		ProbeInterval: 500 * time.Millisecond,
		ProbeTimeout:  200 * time.Millisecond,
		// Three: at three nodes a suspect has 1.5 s to refute before it is
		// declared dead. Failover does not wait for it: a refused
		// connection moves a dead node's actors at once (Rendezvous.MarkDown).
		SuspicionMult: 3,
		// Twice memberlist's LAN rate: a death and a restarted node's
		// readiness reach every member within a few hundred milliseconds.
		GossipInterval: 100 * time.Millisecond,
	}
}

// WANTimings are for nodes in different data centres, where round trips
// take tens of milliseconds and vary: raft's own timeouts scaled by 2.5, as
// Consul's raft_multiplier advises for such links, and memberlist's WAN
// defaults.
func WANTimings() Timings {
	return Timings{
		Heartbeat:      2500 * time.Millisecond,
		Election:       2500 * time.Millisecond,
		LeaderLease:    1250 * time.Millisecond,
		Commit:         50 * time.Millisecond,
		ProbeInterval:  5 * time.Second,
		ProbeTimeout:   3 * time.Second,
		SuspicionMult:  6,
		GossipInterval: 500 * time.Millisecond,
	}
}

// TimingsFor returns the timings of a profile: ProfileLAN or ProfileWAN.
func TimingsFor(profile string) (Timings, error) {
	switch profile {
	case ProfileLAN, "":
		return LANTimings(), nil
	case ProfileWAN:
		return WANTimings(), nil
	}
	return Timings{}, fmt.Errorf("unknown timing profile %q: want %s or %s", profile, ProfileLAN, ProfileWAN)
}

// Validate reports timings raft or memberlist would refuse or that cannot work.
func (t Timings) Validate() error {
	switch {
	case t.Heartbeat < 5*time.Millisecond || t.Election < 5*time.Millisecond || t.Commit <= 0:
		return fmt.Errorf("timings: raft's heartbeat and election timeouts must be at least 5 ms, its commit timeout positive")
	case t.LeaderLease <= 0 || t.LeaderLease > t.Heartbeat:
		return fmt.Errorf("timings: the leader lease must be positive and at most the heartbeat timeout")
	case t.ProbeInterval <= 0 || t.ProbeTimeout <= 0 || t.ProbeTimeout > t.ProbeInterval:
		return fmt.Errorf("timings: the probe timeout must be positive and at most the probe interval")
	case t.SuspicionMult < 1 || t.GossipInterval <= 0:
		return fmt.Errorf("timings: the suspicion multiplier and gossip interval must be positive")
	}
	return nil
}
