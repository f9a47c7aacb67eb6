// Package chromium is the full browser engine: Debian's Chromium driven by
// go-rod, one browser process and a pool of long-lived pages, each reused for
// render after render (a reused page prints a one-page invoice in about
// 100 ms; a new tab per document is about four times slower).
//
// Lockdown: a page runs no JavaScript, and every request it would make goes
// through the DevTools Fetch domain, which fails it unless it is a data: URI.
// Behind that, the browser is started with a proxy that does not exist and a
// resolver that resolves nothing, so even a request the Fetch domain missed
// cannot leave the machine. Only the template's own assets (inlined as data
// URIs) load.
//
// The pool owns the browser it started and kills only that process, by pid.
package chromium
