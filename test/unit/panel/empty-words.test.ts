// What the empty panel says, by where it runs: it said "No agent streams yet — reload the page or open the demo" on
// any site. Inside DevTools and in a tab it speaks to the inspected page; the demo is a last line (the viewer's too).
import { describe, expect, it } from 'vitest';
import { emptyWords, siteName } from '../../../panel/lib/empty-words.ts';

const allOf = (w: ReturnType<typeof emptyWords>) => [w.title, ...w.body, w.open, w.beside ?? '', w.after ?? ''].join('\n');

describe('the empty panel inside DevTools', () => {
  const w = emptyWords('devtools', 'https://chat.example.com');

  it('names the inspected page and what is captured there, streams opened before DevTools too', () => {
    expect(w.title).toBe('No agent streams yet on chat.example.com');
    expect(w.body[0]).toMatch(/^Use the page — /);
    expect(w.body[0]).toContain("Replyscope records the page's SSE and NDJSON responses (fetch, XMLHttpRequest) and EventSource streams from the moment it loads");
    expect(w.body[0]).toContain('one that started before DevTools was opened is here too');
    expect(w.body[0]).toContain('a WebSocket from its first AgentScope or pi event');
  });

  it('says what it cannot see (Workers, other sockets), the include list and the reload', () => {
    expect(w.body[1]).toMatch(/^Not seen: requests made inside a Worker, and sockets that carry no AgentScope or pi event/);
    expect(w.body[1]).toContain('Include URLs…');
    expect(w.body[1]).toContain('Reloading the page captures its streams from their first byte');
  });

  it('says how to import, and keeps the demo to a last line of its own', () => {
    expect(w.body[2]).toContain('a HAR saved from the Network panel');
    expect(w.open).toBe('Import a file…');
    expect(w.beside).toBe('or drop it here.');
    expect(allOf(w)).not.toMatch(/demo/i);
    expect(w.demo).toContain('`npm run demo`');
  });

  it('without a web origin yet (or an opaque one), speaks of this page', () => {
    expect(emptyWords('devtools').title).toBe('No agent streams yet in this page');
    expect(emptyWords('devtools', 'null').title).toBe('No agent streams yet in this page');
  });
});

describe('the empty panel opened as a tab (?tabId=N)', () => {
  const w = emptyWords('tab', 'http://127.0.0.1:8765');

  it('speaks of the inspected tab, and of this panel rather than DevTools', () => {
    expect(w.title).toBe('No agent streams yet on 127.0.0.1:8765');
    expect(emptyWords('tab').title).toBe('No agent streams yet in the inspected tab');
    expect(w.body[0]).toMatch(/^Use the inspected tab's page — /);
    expect(w.body[0]).toContain('one that started before this panel was opened is here too');
    expect(allOf(w)).not.toContain('DevTools');
    expect(w.body[1]).toContain('Reloading that page');
    expect(allOf(w)).not.toMatch(/demo/i);
  });
});

describe('the standalone viewer', () => {
  const w = emptyWords('viewer', 'https://ignored.example');

  it('offers a file, and the demo capture as a last line', () => {
    expect(w.title).toBe('Open or drop a capture');
    expect(w.open).toBe('Open a file…');
    expect(w.after).toBe('Everything stays in this page; nothing is uploaded.');
    expect(allOf(w)).not.toMatch(/No agent streams|demo/i);
    expect(w.demo).toContain('`examples/demo.replyscope.ndjson`');
    expect(w.demo).toContain('`npm run viewer`');
  });
});

describe('siteName', () => {
  it('is the host of a web origin, nothing for any other', () => {
    expect(siteName('https://example.com')).toBe('example.com');
    expect(siteName('http://127.0.0.1:8765')).toBe('127.0.0.1:8765');
    for (const other of [undefined, '', 'null', 'file://', 'chrome-extension://abc', 'not a url']) expect(siteName(other), String(other)).toBeUndefined();
  });
});
