package storage

// Key layout of the state database. Every key starts with a short family
// prefix, listed here so two families never share one; each family's file
// gives its keys in full. Ids are fixed-width so prefix scans stay ordered.
//
//	m/applied, m/restoring            the state machine (fsm.go)
//	m/operator, m/linkkey, p/         operator settings and plans (operator.go)
//	o/, k/, kh/, ok/, l/, lr/         organisations, API keys, the ledger (orgs.go)
//	f/, fq/                           the change feed (feed.go)
//	t/, ts/, ot/, tp/, tv/            templates and versions (templates.go)
//	d/, dd/, od/, dst/, dtp/, dcr/,
//	dq/, dx/, br/, ik/, tpc/          documents (documents.go)
//	w/, ow/, dl/, wq/, wd/            webhook endpoints and deliveries (webhooks.go)
//	sc/, osc/                         signing certificates (signing.go)
//	u/, ue/, um/, om/, s/, us/, ol/,
//	sf/, oi/                          people, memberships, sessions, one-time links (accounts.go)
var (
	// keyApplied holds the raft index of the last applied command.
	keyApplied = []byte("m/applied")
	// keyRestoring is present while a snapshot restore is under way.
	keyRestoring = []byte("m/restoring")
)

// prefixEnd returns the smallest key greater than every key with prefix p.
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}
