package client

// KeysService lists, creates and revokes the organisation's API keys
// (keys.read, keys.write).
type KeysService struct{ c *Client }
