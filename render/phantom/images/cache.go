package images

import (
	"container/list"
	"fmt"
	"sync"
)

// cacheMaxEntries and cacheMaxBytes bound the process-wide cache: templates
// use a handful of logos each, and 128 MB of decoded pixels is a small part
// of a node's memory while holding every image a busy node repeats.
const (
	cacheMaxEntries = 512
	cacheMaxBytes   = 128 << 20
)

// errorCost is what a cached failure counts against the byte bound.
const errorCost = 256

var cache = newLRU(cacheMaxEntries, cacheMaxBytes)

// cacheKey identifies a payload: its SHA-256, and how it is read (the same
// bytes declared SVG or not decode differently or fail).
type cacheKey struct {
	sum  [32]byte
	kind keyKind
}

type keyKind uint8

const (
	keyRaster    keyKind = iota // any type but SVG: sniffed
	keySVG                      // declared image/svg+xml
	keyInlineSVG                // InlineSVG markup
)

func kindOf(mime string) keyKind {
	if isSVGType(mime) {
		return keySVG
	}
	return keyRaster
}

// lru is a bounded, concurrency-safe map from payload to decoded image. A
// payload being decoded has an entry whose ready channel is open; loaders of
// the same key wait on it, so each payload is decoded once and every caller
// gets the same *Image.
type lru struct {
	mu         sync.Mutex // guards everything below
	maxEntries int
	maxBytes   int
	bytes      int
	order      *list.List // of *entry, most recently used first; only ready entries
	m          map[cacheKey]*entry
	// aliases maps the SHA-256 of a src string to its entry, so that a
	// repeated URI skips the base64 decoding (most of a hit's cost).
	aliases map[[32]byte]*entry
}

type entry struct {
	key   cacheKey
	ready chan struct{} // closed when img, err and cost are set
	img   *Image
	err   error
	cost  int
	elem  *list.Element // nil while decoding or once evicted
	// aliases are the src hashes that lead here (at most maxAliases).
	aliases [][32]byte
}

// maxAliases bounds the src strings remembered per entry: the same bytes
// are rarely written in more than a few ways.
const maxAliases = 4

func newLRU(maxEntries, maxBytes int) *lru {
	return &lru{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), m: make(map[cacheKey]*entry), aliases: make(map[[32]byte]*entry)}
}

// lookup returns the result cached for a src hash, if any.
func (c *lru) lookup(alias [32]byte) (*Image, error, bool) {
	c.mu.Lock()
	e, ok := c.aliases[alias]
	if !ok {
		c.mu.Unlock()
		return nil, nil, false
	}
	if e.elem != nil {
		c.order.MoveToFront(e.elem)
	}
	c.mu.Unlock()
	<-e.ready
	return e.img, e.err, true
}

// addAlias records that alias leads to e (c.mu held).
func (c *lru) addAlias(e *entry, alias *[32]byte) {
	if alias == nil || len(e.aliases) >= maxAliases {
		return
	}
	if _, ok := c.aliases[*alias]; ok {
		return
	}
	c.aliases[*alias] = e
	e.aliases = append(e.aliases, *alias)
}

// get returns the cached result for key, or runs load once (whatever the
// number of concurrent callers) and caches its result; alias, when not nil,
// becomes a way to the entry for lookup. An image larger than the whole
// bound is returned but not kept.
func (c *lru) get(key cacheKey, alias *[32]byte, load func() (*Image, int, error)) (*Image, error) {
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		if e.elem != nil {
			c.order.MoveToFront(e.elem)
			c.addAlias(e, alias)
		}
		c.mu.Unlock()
		<-e.ready
		return e.img, e.err
	}
	e := &entry{key: key, ready: make(chan struct{})}
	c.m[key] = e
	c.addAlias(e, alias)
	c.mu.Unlock()

	img, cost, err := safeLoad(load)
	if err != nil {
		img, cost = nil, errorCost
	}
	e.img, e.err, e.cost = img, err, cost
	close(e.ready)

	c.mu.Lock()
	defer c.mu.Unlock()
	if cost > c.maxBytes {
		c.remove(e)
		return img, err
	}
	e.elem = c.order.PushFront(e)
	c.bytes += cost
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.order.Back().Value.(*entry)
		c.order.Remove(old.elem)
		old.elem = nil
		c.bytes -= old.cost
		c.remove(old)
	}
	return img, err
}

// remove forgets e and its aliases (c.mu held).
func (c *lru) remove(e *entry) {
	delete(c.m, e.key)
	for _, a := range e.aliases {
		delete(c.aliases, a)
	}
	e.aliases = nil
}

// safeLoad runs load, turning a panic in a decoder (a bug on hostile input)
// into ErrCorrupt, so that bad input never takes a worker down.
func safeLoad(load func() (*Image, int, error)) (img *Image, cost int, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, cost, err = nil, 0, fmt.Errorf("%w: decoder failed: %v", ErrCorrupt, r)
		}
	}()
	return load()
}

// stats reports the number of cached entries and their total cost, for tests.
func (c *lru) stats() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes
}
