package node_test

import (
	"encoding/json"

	"github.com/platen/platen/internal/testnode"
)

func jsonInto(r *testnode.Response) error { return json.Unmarshal(r.Body, &r.JSON) }
