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

// cacheKey identifies a payload: its SHA-256, and whether it was declared
// SVG (the same bytes under another type decode differently or fail).
type cacheKey struct {
	sum [32]byte
	svg bool
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
}

type entry struct {
	key   cacheKey
	ready chan struct{} // closed when img, err and cost are set
	img   *Image
	err   error
	cost  int
	elem  *list.Element // nil while decoding or once evicted
}

func newLRU(maxEntries, maxBytes int) *lru {
	return &lru{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), m: make(map[cacheKey]*entry)}
}

// get returns the cached result for key, or runs load once (whatever the
// number of concurrent callers) and caches its result. An image larger than
// the whole bound is returned but not kept.
func (c *lru) get(key cacheKey, load func() (*Image, int, error)) (*Image, error) {
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		if e.elem != nil {
			c.order.MoveToFront(e.elem)
		}
		c.mu.Unlock()
		<-e.ready
		return e.img, e.err
	}
	e := &entry{key: key, ready: make(chan struct{})}
	c.m[key] = e
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
		delete(c.m, key)
		return img, err
	}
	e.elem = c.order.PushFront(e)
	c.bytes += cost
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.order.Back().Value.(*entry)
		c.order.Remove(old.elem)
		old.elem = nil
		c.bytes -= old.cost
		delete(c.m, old.key)
	}
	return img, err
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
