package storage

import "encoding/binary"

// Key layout of the state database. Every key starts with a short family
// prefix; ids are fixed-width so prefix scans stay ordered.
//
//	m/applied             raft index of the last applied command
//	m/restoring           present while a snapshot restore is under way
//	m/operator            hash of the operator token
//	m/linkkey             key that signs download links
//	p/<plan>              Plan: the operator's terms, over DefaultPlans
//	o/<orgID>             Org
//	k/<keyID>             APIKey
//	kh/<sha256 hex>       keyID, for authentication
//	ok/<orgID>/<keyID>    empty: an org's keys
//	l/<orgID>/<seq>       LedgerEntry, seq big-endian
//	lr/<orgID>/<ref>      seq of the ledger row with that reference
//	f/<orgID>/<seq>       Event of the change feed, seq big-endian
//	fq/<orgID>            last feed sequence number used
//	t/<tplID>             Template
//	ts/<orgID>/<slug>     tplID
//	ot/<orgID>/<tplID>    empty: an org's templates
//	tv/<tplID>/<n>        TemplateVersion, n big-endian uint32
var (
	keyApplied   = []byte("m/applied")
	keyRestoring = []byte("m/restoring")
	keyOperator  = []byte("m/operator")
	keyLinkKey   = []byte("m/linkkey")
)

func orgKey(orgID string) []byte        { return []byte("o/" + orgID) }
func apiKeyKey(keyID string) []byte     { return []byte("k/" + keyID) }
func keyHashKey(hash string) []byte     { return []byte("kh/" + hash) }
func orgKeysPrefix(orgID string) []byte { return []byte("ok/" + orgID + "/") }
func orgKeyIndex(orgID, keyID string) []byte {
	return append(orgKeysPrefix(orgID), keyID...)
}
func ledgerPrefix(orgID string) []byte { return []byte("l/" + orgID + "/") }
func ledgerKey(orgID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(ledgerPrefix(orgID), seq)
}
func ledgerRefKey(orgID, ref string) []byte { return []byte("lr/" + orgID + "/" + ref) }
func feedPrefix(orgID string) []byte        { return []byte("f/" + orgID + "/") }
func feedKey(orgID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(feedPrefix(orgID), seq)
}

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

func templateKey(id string) []byte              { return []byte("t/" + id) }
func templateSlugKey(orgID, slug string) []byte { return []byte("ts/" + orgID + "/" + slug) }
func orgTemplatesPrefix(orgID string) []byte    { return []byte("ot/" + orgID + "/") }
func orgTemplateKey(orgID, tplID string) []byte { return append(orgTemplatesPrefix(orgID), tplID...) }
func templatePiecesKey(id string) []byte        { return []byte("tp/" + id) }
func versionsPrefix(tplID string) []byte        { return []byte("tv/" + tplID + "/") }
func versionKey(tplID string, n int) []byte {
	return binary.BigEndian.AppendUint32(versionsPrefix(tplID), uint32(n))
}

func feedSeqKey(orgID string) []byte { return []byte("fq/" + orgID) }

func planKey(name string) []byte { return []byte("p/" + name) }
