// One realtime connection per tab, shared by the pages that show live
// changes (documents, overview). It authenticates with the session cookie,
// subscribes to the change feed, and after a drop reconnects and resumes from
// the last cursor it saw, so no event is missed (docs/realtime.md).
const listeners = new Set();
let ws = null;
let cursor = '';
let retry = 500;
let closing = false;

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // Each handler acts on its own socket, and only while it is the current
  // one: a socket stopped (the last page left) closes after the next page
  // opened another, and its close must not clear or replace that one.
  const sock = new WebSocket(`${proto}//${location.host}/v1/realtime`);
  ws = sock;
  subscribed = false;
  sock.addEventListener('open', () => {
    if (ws !== sock) return;
    retry = 500;
    sock.send(JSON.stringify({ type: 'subscribe', ref: 'console', ...(cursor ? { since: cursor } : {}) }));
  });
  sock.addEventListener('message', (m) => {
    if (ws !== sock) return;
    let f;
    try { f = JSON.parse(m.data); } catch { return; }
    if (f.type === 'subscribed') {
      if (!cursor) cursor = f.cursor;
      subscribed = true;
      waiting.splice(0).forEach(fn => fn());
    }
    if (f.type === 'event') {
      cursor = f.cursor;
      for (const fn of listeners) { try { fn(f); } catch (e) { console.error(e); } }
    }
  });
  sock.addEventListener('close', () => {
    if (ws !== sock) return;
    ws = null;
    subscribed = false;
    if (closing || listeners.size === 0) return;
    setTimeout(() => { if (listeners.size && !ws) connect(); }, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

// onEvent calls fn with each feed event ({event, cursor, at, data}) from now
// on, and returns the function that stops it. The socket closes when the last
// listener stops.
export function onEvent(fn) {
  listeners.add(fn);
  closing = false;
  if (!ws) connect();
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0 && ws) { closing = true; ws.close(); ws = null; cursor = ''; subscribed = false; }
  };
}

// live reports whether the socket is open.
export function live() { return ws?.readyState === WebSocket.OPEN; }

// Whether the socket has subscribed, and who waits for it (whenLive).
let subscribed = false;
const waiting = [];

// whenLive resolves once the feed is subscribed (at once when it is), or
// after two seconds without it: a page that starts listening, waits for
// this, then reads its list misses nothing made between the read and the
// subscription, and still paints when the socket cannot open.
export function whenLive() {
  if (subscribed && ws) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => { clearTimeout(t); resolve(true); };
    const t = setTimeout(() => { const i = waiting.indexOf(done); if (i >= 0) waiting.splice(i, 1); resolve(false); }, 2000);
    waiting.push(done);
  });
}
