package actors

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"

	"github.com/anthdm/hollywood/actor"

	"github.com/platen/platen/internal/fault"
)

// ErrPanicked is the reply to a request whose handling panicked.
var ErrPanicked = errors.New("internal error while handling the request")

// Resetter is an actor whose state may be half-changed by a panic; Recover
// calls Reset so it can reload its state before the next message.
type Resetter interface {
	Reset(c *actor.Context)
}

// Panics counts panics caught by Recover, for metrics and tests.
var Panics atomic.Int64

// Counters for the node's metrics.
var (
	// DocumentsCompleted and DocumentsFailed count the documents this node
	// finished rendering.
	DocumentsCompleted, DocumentsFailed atomic.Int64
	// WebhooksDelivered, WebhooksRetried and WebhooksFailed count recorded
	// delivery attempts by outcome.
	WebhooksDelivered, WebhooksRetried, WebhooksFailed atomic.Int64
)

// Recover is middleware that catches a panic in an actor's Receive, logs it
// with its stack, answers a waiting requester with ErrPanicked, and lets the
// actor go on with its next message. It never lets the panic reach
// hollywood's restart logic.
func Recover(next actor.ReceiveFunc) actor.ReceiveFunc {
	return func(c *actor.Context) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			Panics.Add(1)
			slog.Error("actor panicked", "actor", c.PID().String(), "message", fmt.Sprintf("%T", c.Message()),
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if c.Sender() != nil {
				c.Respond(Reply{Err: ErrPanicked})
			}
			if r, ok := c.Receiver().(Resetter); ok {
				func() {
					defer func() {
						if v := recover(); v != nil {
							slog.Error("actor reset panicked", "actor", c.PID().String(), "panic", fmt.Sprint(v))
						}
					}()
					r.Reset(c)
				}()
			}
		}()
		next(c)
	}
}

// NewEngine returns a hollywood engine for this node.
func NewEngine() (*actor.Engine, error) {
	return actor.NewEngine(actor.NewEngineConfig())
}

// Reply is the answer to every request sent to a Platen actor.
type Reply struct {
	Value any
	Err   error
}

func init() {
	fault.Register("actors.not_owner", ErrNotOwner)
	fault.Register("actors.no_answer", ErrNoAnswer)
	fault.Register("actors.panicked", ErrPanicked)
}
