package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/platen/platen/auth"
)

const adminHelp = `Usage: platen admin [--url URL] [--token TOKEN] VERB [ARGS]

  --url     node address (PLATEN_URL, default http://127.0.0.1:8080)
  --token   operator token (PLATEN_OPERATOR_TOKEN)

Verbs:
  orgs                                   list organisations
  org ORG_ID                             show an organisation
  create-org NAME [PLAN]                 create an organisation (plan: sandbox, starter, growth)
  set-plan ORG_ID PLAN                   change an organisation's plan
  set-rate ORG_ID|plan:PLAN RATE BURST   each key's requests a second and burst, for an organisation or a plan
                                         (0 clears: the plan's, then the node's --rate-limit and --rate-burst)
  keys ORG_ID                            list an organisation's API keys
  create-key ORG_ID NAME SCOPE[,SCOPE…]  create an API key ("all" for every scope); shown once
  revoke-key ORG_ID KEY_ID               revoke an API key
  credit ORG_ID AMOUNT_MICROS REFERENCE  credit a wallet; the reference (unique, such as an invoice id) makes a retry safe
  ledger ORG_ID                          an organisation's whole ledger, balance and holds
  invite ORG_ID EMAIL [owner|member]     a one-time link (24 hours) that makes EMAIL a member (default) or owner
                                         of the organisation in the dashboard; shown once
  reset-link EMAIL                       a one-time link (24 hours) with which EMAIL sets a new password; shown once
  plans                                  the plan catalogue
  set-terms PLAN MONTHLY_PAGES RATE_MICROS  set a plan's allowance and rate
  cluster                                show the cluster
  remove-node NODE_ID                    remove a node that is gone for good from raft
`

func admin(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(os.Stderr, adminHelp) }
	url := fs.String("url", "http://127.0.0.1:8080", "node address")
	token := fs.String("token", "", "operator token")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := applyEnv(fs); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) == 0 || rest[0] == "help" {
		fmt.Fprint(out, adminHelp)
		return nil
	}
	if *token == "" {
		return fmt.Errorf("the operator token is required: --token or PLATEN_OPERATOR_TOKEN")
	}
	c := adminClient{base: strings.TrimSuffix(*url, "/"), token: *token, out: out}
	verb, a := rest[0], rest[1:]
	need := func(n int, usage string) error {
		if len(a) < n {
			return fmt.Errorf("usage: platen admin %s %s", verb, usage)
		}
		return nil
	}
	switch verb {
	case "orgs":
		return c.do("GET", "/admin/v1/orgs", nil)
	case "org":
		if err := need(1, "ORG_ID"); err != nil {
			return err
		}
		return c.do("GET", "/admin/v1/orgs/"+a[0], nil)
	case "create-org":
		if err := need(1, "NAME [PLAN]"); err != nil {
			return err
		}
		body := map[string]any{"name": a[0]}
		if len(a) > 1 {
			body["plan"] = a[1]
		}
		return c.do("POST", "/admin/v1/orgs", body)
	case "set-plan":
		if err := need(2, "ORG_ID PLAN"); err != nil {
			return err
		}
		return c.do("PATCH", "/admin/v1/orgs/"+a[0], map[string]any{"plan": a[1]})
	case "set-rate":
		if err := need(3, "ORG_ID|plan:PLAN RATE BURST"); err != nil {
			return err
		}
		var rate float64
		var burst int
		if _, err := fmt.Sscan(a[1], &rate); err != nil {
			return fmt.Errorf("rate: %w", err)
		}
		if _, err := fmt.Sscan(a[2], &burst); err != nil {
			return fmt.Errorf("burst: %w", err)
		}
		body := map[string]any{"rateLimit": rate, "rateBurst": burst}
		if plan, ok := strings.CutPrefix(a[0], "plan:"); ok {
			return c.do("PUT", "/admin/v1/plans/"+plan, body)
		}
		return c.do("PATCH", "/admin/v1/orgs/"+a[0], body)
	case "keys":
		if err := need(1, "ORG_ID"); err != nil {
			return err
		}
		return c.do("GET", "/admin/v1/orgs/"+a[0]+"/keys", nil)
	case "create-key":
		if err := need(3, "ORG_ID NAME SCOPE[,SCOPE…]"); err != nil {
			return err
		}
		scopes := strings.Split(a[2], ",")
		if a[2] == "all" {
			scopes = auth.AllScopes()
		}
		return c.do("POST", "/admin/v1/orgs/"+a[0]+"/keys", map[string]any{"name": a[1], "scopes": scopes})
	case "revoke-key":
		if err := need(2, "ORG_ID KEY_ID"); err != nil {
			return err
		}
		return c.do("DELETE", "/admin/v1/orgs/"+a[0]+"/keys/"+a[1], nil)
	case "credit":
		if err := need(3, "ORG_ID AMOUNT_MICROS REFERENCE"); err != nil {
			return err
		}
		var amount int64
		if _, err := fmt.Sscan(a[1], &amount); err != nil {
			return fmt.Errorf("amount must be a whole number of micro-units: %w", err)
		}
		return c.do("POST", "/admin/v1/orgs/"+a[0]+"/wallet/credit", map[string]any{"amountMicros": amount, "reference": a[2]})
	case "ledger":
		if err := need(1, "ORG_ID"); err != nil {
			return err
		}
		return c.do("GET", "/admin/v1/orgs/"+a[0]+"/ledger", nil)
	case "invite":
		if err := need(2, "ORG_ID EMAIL [owner|member]"); err != nil {
			return err
		}
		body := map[string]any{"email": a[1]}
		if len(a) > 2 {
			body["role"] = a[2]
		}
		return c.do("POST", "/admin/v1/orgs/"+a[0]+"/invites", body)
	case "reset-link":
		if err := need(1, "EMAIL"); err != nil {
			return err
		}
		return c.do("POST", "/admin/v1/users/reset", map[string]any{"email": a[0]})
	case "plans":
		return c.do("GET", "/admin/v1/plans", nil)
	case "set-terms":
		if err := need(3, "PLAN MONTHLY_PAGES RATE_MICROS"); err != nil {
			return err
		}
		var pages, rate int64
		if _, err := fmt.Sscan(a[1], &pages); err != nil {
			return fmt.Errorf("monthly pages: %w", err)
		}
		if _, err := fmt.Sscan(a[2], &rate); err != nil {
			return fmt.Errorf("rate: %w", err)
		}
		return c.do("PUT", "/admin/v1/plans/"+a[0], map[string]any{"monthlyPages": pages, "pageRateMicros": rate})
	case "cluster":
		return c.do("GET", "/admin/v1/cluster", nil)
	case "remove-node":
		if err := need(1, "NODE_ID"); err != nil {
			return err
		}
		return c.do("DELETE", "/admin/v1/cluster/nodes/"+a[0], nil)
	default:
		return fmt.Errorf("unknown verb %q; 'platen admin help' lists them", verb)
	}
}

type adminClient struct {
	base, token string
	out         io.Writer
}

// do calls the operator API and prints the answer's data as indented JSON, or
// returns the refusal's code and message.
func (c adminClient) do(method, path string, body any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return err
	}
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Message string          `json:"message"`
		Error   struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("%s %s: HTTP %d, not a Platen answer", method, path, res.StatusCode)
	}
	if !env.Success {
		return fmt.Errorf("%s (HTTP %d): %s", env.Error.Code, res.StatusCode, env.Error.Message)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, env.Data, "", "  "); err != nil {
		return err
	}
	fmt.Fprintln(c.out, pretty.String())
	if env.Message != "" {
		fmt.Fprintln(os.Stderr, env.Message)
	}
	return nil
}
