package actors

// AskOrg asks the org's actor with any message and answers its reply
// untyped: the tests' tables mix commands, and a test may send what no
// command is. Code asks with Ask, typed.
func (s *System) AskOrg(orgID string, msg any) (any, error) {
	return s.askOwner("org", orgID, msg)
}
