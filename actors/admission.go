package actors

// Admission decides where a new document renders and bounds the documents
// queued or rendering on this node (docs/design.md "Queues"): AdmitDocument
// reserves a place here or picks a less loaded peer, StartOn starts the
// render there, and a peer takes a handed-over document through ServeStart.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/platen/platen/cluster"
	"github.com/platen/platen/internal/fault"
)

// Admit reserves room for one more document on this node, or refuses with
// fault.ErrOverloaded when the queue is full. Release gives the room back if
// the document is not created after all.
func (s *System) Admit() (release func(), err error) {
	if n := s.tracker.inFlight.Add(1); n > int64(s.docs.QueueCapacity) {
		s.tracker.inFlight.Add(-1)
		return nil, fmt.Errorf("%w: %d documents are queued or rendering on this node", fault.ErrOverloaded, n-1)
	}
	var once sync.Once
	return func() { once.Do(func() { s.tracker.inFlight.Add(-1) }) }, nil
}

// InFlight is how many documents are queued or rendering on this node.
func (s *System) InFlight() int64 { return s.tracker.inFlight.Load() }

// StartPath is where a node takes a document to render from a loaded peer.
const StartPath = "/peer/v1/documents/start"

// startRequest asks a node to render a recorded document; Index is the
// asker's applied index, which holds the document's record.
type startRequest struct {
	ID    string `json:"id"`
	Index uint64 `json:"index"`
}

// AdmitDocument picks the node that renders a new document and reserves its
// place. It is this node unless this node is loaded beyond its peers: at
// least two rounds of work queued (2 × RenderPages) and a round more than
// the least loaded live peer, whose load gossip tells. Then, or when this
// node's queue is full and a peer's is not, it is the least loaded peer.
// release gives back a reservation on this node if the document is not
// recorded after all.
func (s *System) AdmitDocument() (node string, release func(), err error) {
	self := s.placement.Self().ID
	noop := func() {}
	if s.remote == nil || s.remote.Loads == nil {
		release, err = s.Admit()
		return self, release, err
	}
	peer, peerLoad := "", int64(-1)
	for id, load := range s.remote.Loads() {
		if id != self && (peerLoad < 0 || load < peerLoad) {
			peer, peerLoad = id, load
		}
	}
	round := int64(max(s.remote.RenderPages, 1))
	mine := s.InFlight()
	if peer != "" && mine >= 2*round && mine > peerLoad+round {
		return peer, noop, nil
	}
	release, err = s.Admit()
	if errors.Is(err, fault.ErrOverloaded) && peer != "" && peerLoad < int64(s.docs.QueueCapacity) {
		return peer, noop, nil
	}
	return self, release, err
}

// StartOn starts a recorded document's render on node: here (taking the
// place AdmitDocument reserved when admitted is set, else reserving one),
// or on the peer AdmitDocument chose. If the peer cannot be reached the
// document renders here. A node already rendering it does nothing.
func (s *System) StartOn(node, id string, admitted bool) {
	self := s.placement.Self().ID
	alive := false
	for _, m := range s.placement.Members() {
		alive = alive || m.ID == node
	}
	if node == self || s.remote == nil || !alive {
		if admitted && node == self {
			s.StartDocument(id)
		} else {
			s.Resume(id)
		}
		return
	}
	var addr string
	for _, m := range s.placement.Members() {
		if m.ID == node {
			addr = m.Addr
		}
	}
	req := startRequest{ID: id, Index: s.remote.AppliedIndex()}
	go func() {
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		err := errors.New("not a live member")
		if addr != "" {
			err = s.remote.Peers.Call(ctx, addr, StartPath, req, nil)
		}
		if err != nil {
			s.docs.Logger.Warn("cannot hand a document to a peer; rendering it here", "document", id, "node", node, "err", err)
			s.Resume(id)
		}
	}()
}

// Resume starts the render of a recorded, pending document here unless it
// runs here already. Unlike StartDocument it reserves its own place.
func (s *System) Resume(id string) {
	s.tracker.inFlight.Add(1)
	s.StartDocument(id)
}

// ServeStart renders a document a loaded peer hands over.
func (s *System) ServeStart(w http.ResponseWriter, r *http.Request) {
	var in startRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&in); err != nil {
		cluster.WriteJSON(w, nil, fmt.Errorf("%w: %v", fault.ErrInvalid, err))
		return
	}
	if s.remote != nil {
		s.remote.WaitApplied(in.Index, 5*time.Second)
	}
	if _, err := s.docs.Store.Document(in.ID); err != nil {
		cluster.WriteJSON(w, nil, err)
		return
	}
	// Bounded like a document taken here: a full node refuses, and the
	// asker renders the document itself.
	if _, err := s.Admit(); err != nil {
		cluster.WriteJSON(w, nil, err)
		return
	}
	s.StartDocument(in.ID)
	cluster.WriteJSON(w, struct{}{}, nil)
}
