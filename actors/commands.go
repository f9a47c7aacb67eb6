package actors

import (
	"fmt"

	"github.com/platen/platen/storage"
)

// A Command is a message for an organisation's actor: a write, or a quote.
// Each command decides itself against the organisation as the actor holds
// it (its decide method, beside the command's type), and names the type of
// its reply, R, so that Ask answers it typed:
//
//	nk, err := actors.Ask(sys, orgID, actors.CreateKey{Name: "ci", Scopes: scopes})
//	// nk is a NewKey
//
// The actor runs one command at a time (orgActor.handle): it asks the
// command to decide, proposes the storage command it filled in to the raft
// log, and answers once that is applied. A command crosses between nodes by
// its registered type (remote.go), so it holds only data.
type Command[R any] interface {
	orgCommand
	// replies names R; it is never called.
	replies(R)
}

// orgCommand is a Command seen by the actor, whatever its reply.
type orgCommand interface {
	// decide checks the command against a's organisation and either fills
	// in cmd (its Kind and body) and says how to answer once it is applied,
	// or answers at once (a refusal as the error, or a replay).
	decide(a *orgActor, cmd *storage.Command) (decision, error)
}

// decision is what a command decided.
type decision struct {
	// answered, when set, is the reply now: nothing is proposed.
	answered bool
	// reply is the answer: now when answered, else once the command is
	// applied, unless after or applied make it then.
	reply any
	// after makes the reply from the store once the command is applied,
	// for answers the actor's own copy cannot give.
	after func() any
	// applied makes the reply from the organisation as the command leaves
	// it.
	applied func(next storage.Org) any
	// ref is a wallet credit's reference, held until the command settles
	// so that a retry meanwhile is not credited twice.
	ref string
}

// answer is a decision to reply v at once, proposing nothing.
func answer(v any) decision { return decision{answered: true, reply: v} }

// Ask sends a command to its organisation's actor, on whichever node owns
// it (askOwner: forwarded through remote.go's envelope when another node
// does, asked again while the owner moves), and waits for the typed reply
// until the System's ask timeout.
func Ask[R any](s *System, orgID string, c Command[R]) (R, error) {
	var zero R
	v, err := s.askOwner("org", orgID, c)
	if err != nil || v == nil {
		return zero, err
	}
	r, ok := v.(R)
	if !ok {
		return zero, fmt.Errorf("actors: %T answered %T, not %T", c, v, zero)
	}
	return r, nil
}

// The replies of each command.
func (CreateOrg) replies(storage.Org)               {}
func (SetPlan) replies(storage.Org)                 {}
func (SetRateLimit) replies(storage.Org)            {}
func (CreateKey) replies(NewKey)                    {}
func (RevokeKey) replies(storage.APIKey)            {}
func (CreditWallet) replies(Credit)                 {}
func (CreateTemplate) replies(storage.Template)     {}
func (SaveVersion) replies(storage.TemplateVersion) {}
func (ActivateVersion) replies(storage.Template)    {}
func (UpdateTemplate) replies(storage.Template)     {}
func (CreateDocument) replies(CreatedDocument)      {}
func (ChangeDocument) replies(struct{})             {}
func (QuoteDocument) replies(Quote)                 {}
func (CreateEndpoint) replies(NewEndpoint)          {}
