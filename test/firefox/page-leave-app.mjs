// The page and server of the Firefox page-leave checks (page-leave.mjs): a page that reads an SSE stream the server
// keeps open — by fetch, EventSource or a streaming XHR — and navigates away (same origin) right after it got some.
//
// The page notes in sessionStorage, synchronously as it happens (sessionStorage survives the navigation, and the next
// page reports it): `read`, what it got so far (bytes for fetch and XHR — the server's text is ASCII, so XHR's
// responseText length is its byte count —, messages for EventSource); `closed`, the error its fetch reader's `closed`
// gives; `events`, what the EventSource or XHR fired once the page had begun to leave (with readyState, status and the
// response's length), the page's own view of how the stream ended.
import { createServer } from 'node:http';

const APP = `<!doctype html><meta charset="utf-8"><title>leave</title><script>
const note = (key, value) => sessionStorage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
const events = [];
const leave = () => { if (!window.leaving) { window.leaving = true; location.href = '/l/next'; } };
// (Whether the browser kept the page in its back/forward cache: page-leave.mjs logs it when a run is tried again.)
addEventListener('pagehide', (e) => note('persisted', String(e.persisted)));
window.run = (transport, id, leaveAt) => {
  sessionStorage.clear();
  note('events', events);
  const url = '/l/stream?id=' + id;
  const seen = (what) => { if (window.leaving) { events.push(what); note('events', events); } };
  if (transport === 'fetch') return readFetch(url, leaveAt);
  if (transport === 'eventsource') {
    const es = new EventSource(url);
    let n = 0;
    es.onmessage = () => { note('read', String(++n)); if (n >= leaveAt) leave(); };
    es.onerror = () => seen('error readyState=' + es.readyState);
    return;
  }
  const x = new XMLHttpRequest();
  x.open('GET', url);
  let n = 0;
  const got = () => { n = Math.max(n, x.responseText.length); note('read', String(n)); if (n >= leaveAt) leave(); };
  x.onreadystatechange = () => x.readyState === 3 && got();
  x.onprogress = got;
  for (const type of ['abort', 'error', 'load', 'timeout', 'loadend']) {
    x.addEventListener(type, () => seen(type + ' readyState=' + x.readyState + ' status=' + x.status + ' length=' + x.responseText.length));
  }
  x.send();
};
async function readFetch(url, leaveAt) {
  const r = await fetch(url);
  const rd = r.body.getReader();
  rd.closed.then(() => note('closed', 'resolved'), (e) => note('closed', e && e.name ? e.name + ': ' + e.message : String(e)));
  let n = 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) return;
    n += value.length;
    note('read', String(n));
    if (n >= leaveAt) return leave();
  }
}
</script>`;
const NEXT = '<!doctype html><meta charset="utf-8"><title>next</title>';

/** One SSE frame of the stream: a token of a reply, as the AgentScope protocol sends it. */
const frame = (i) => `data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: `token ${i} ` })}\n\n`;

/** The server: /l/app, /l/next, /l/stream?id=… (a token a frame every few ms until the page's connection closes). */
export async function startPageLeaveServer() {
  const sent = new Map(); // id → the frames written so far
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/l/app' || url.pathname === '/l/next') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(url.pathname === '/l/app' ? APP : NEXT);
    if (url.pathname !== '/l/stream') return res.writeHead(404).end();
    const id = url.searchParams.get('id');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    const out = [];
    sent.set(id, out);
    for (let i = 0; !res.destroyed && !res.writableEnded; i++) {
      res.write(frame(i));
      out.push(frame(i));
      await new Promise((r) => setTimeout(r, 2)); // a token every few milliseconds, as a model streams them
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    /** The bytes written on stream `id` so far. */
    sent: (id) => Buffer.from((sent.get(id) ?? []).join(''), 'utf8'),
    /** The data of the messages written on stream `id` so far (what an EventSource dispatches of them). */
    messages: (id) => (sent.get(id) ?? []).map((f) => f.slice('data: '.length, -2)),
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
