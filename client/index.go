package client

import "context"

// Index reads GET /v1: the calling key's organisation, plan and scopes,
// and every operation of the API.
func (c *Client) Index(ctx context.Context, opts ...CallOption) (*Index, error) {
	cl := c.newCall(opIndex)
	for _, o := range opts {
		o(cl)
	}
	res, body, err := c.send(ctx, cl)
	if err != nil {
		return nil, err
	}
	if cl.into != nil {
		*cl.into = *res
	}
	var ix Index
	if err := decode(body, &ix); err != nil {
		return nil, err
	}
	return &ix, nil
}

// OpenAPI fetches the API's OpenAPI 3.1 document (JSON).
func (c *Client) OpenAPI(ctx context.Context, opts ...CallOption) ([]byte, error) {
	cl := c.newCall(opOpenAPI)
	cl.raw = true
	body, _, err := c.doRaw(ctx, cl, opts)
	return body, err
}
