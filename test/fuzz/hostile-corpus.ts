// Hostile content for the panel and the viewer: markup and script payloads in every string field of AgentScope and
// pi streams, javascript:/data:text/html/vbscript: URLs where the protocol carries URLs, SVG with script as data
// blocks, RTL/bidi overrides, a 10 MB single-line text, and values String()/JSON.stringify cannot write out. Every
// payload that executes sets `window.__pwned` (or calls alert), so a renderer that injects markup is caught by a
// sentinel, not only by a CSP report.
import type { CaptureRecord, ConnectionRecord } from '../../src/core/capture/model.ts';
import { encodeFrames, recordsFor, type Frame } from './wire.ts';

export const PAYLOADS = [
  '<script>window.__pwned="script"</script>',
  '<img src=x onerror="window.__pwned=\'img\'">',
  '<svg onload="window.__pwned=\'svg\'"><script>window.__pwned="svg-script"</script></svg>',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  '<a href="javascript:window.__pwned=\'a\'">click</a>',
  '"><body onload=window.__pwned="attr">',
  '<style>*{display:none!important}</style>',
  '{{constructor.constructor("window.__pwned=\'template\'")()}}',
  '\u202Egnp.exe\u202C \u2066rtl\u2069 \u200F',
];
export const ALL = PAYLOADS.join(' ');
export const HOSTILE_URLS = [
  'javascript:window.__pwned="js-url"',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>parent.__pwned="data-html"</script>',
  'vbscript:msgbox(1)',
  'http://127.0.0.1/"><script>window.__pwned="url-attr"</script>',
];
const b64 = (s: string) => Buffer.from(s).toString('base64');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=\'svg-data\'"><script>window.__pwned="svg-data-script"</script><rect width="10" height="10"/></svg>';
const HTML = '<html><body><script>window.__pwned="html-data"</script></body></html>';

export interface CorpusItem {
  name: string;
  frames: Frame[];
  requestBody?: string;
}

function agentScope(): Frame[] {
  const r = `reply-${ALL}`;
  const ev = (e: Record<string, unknown>): Frame => ({ kind: 'event', value: { reply_id: r, created_at: '2026-01-01T00:00:00', metadata: { note: ALL }, ...e } });
  return [
    ev({ type: 'REPLY_START', session_id: ALL, name: ALL, role: 'assistant' }),
    ev({ type: 'MODEL_CALL_START', model_name: ALL }),
    ev({ type: 'THINKING_BLOCK_START', block_id: `t-${ALL}` }),
    ev({ type: 'THINKING_BLOCK_DELTA', block_id: `t-${ALL}`, delta: ALL }),
    ev({ type: 'TEXT_BLOCK_START', block_id: `b-${ALL}` }),
    ...PAYLOADS.map((p) => ev({ type: 'TEXT_BLOCK_DELTA', block_id: `b-${ALL}`, delta: p })),
    ev({ type: 'TEXT_BLOCK_END', block_id: `b-${ALL}` }),
    ev({ type: 'DATA_BLOCK_START', block_id: 'svg', media_type: 'image/svg+xml' }),
    ev({ type: 'DATA_BLOCK_DELTA', block_id: 'svg', media_type: 'image/svg+xml', data: b64(SVG) }),
    ev({ type: 'DATA_BLOCK_START', block_id: 'html', media_type: 'text/html' }),
    ev({ type: 'DATA_BLOCK_DELTA', block_id: 'html', media_type: 'text/html', data: b64(HTML) }),
    ev({ type: 'HINT_BLOCK', block_id: 'hint', hint: ALL, source: ALL }),
    ev({ type: 'TOOL_CALL_START', tool_call_id: `c-${ALL}`, tool_call_name: ALL }),
    ev({ type: 'TOOL_CALL_DELTA', tool_call_id: `c-${ALL}`, delta: JSON.stringify({ html: ALL, url: HOSTILE_URLS[0] }) }),
    ev({ type: 'TOOL_CALL_END', tool_call_id: `c-${ALL}` }),
    ev({ type: 'TOOL_RESULT_START', tool_call_id: `c-${ALL}`, tool_call_name: ALL }),
    ev({ type: 'TOOL_RESULT_TEXT_DELTA', tool_call_id: `c-${ALL}`, delta: ALL }),
    ...HOSTILE_URLS.map((url, i) => ev({ type: 'TOOL_RESULT_DATA_DELTA', tool_call_id: `c-${ALL}`, block_id: `u${i}`, media_type: 'text/html', url })),
    ev({ type: 'TOOL_RESULT_DATA_DELTA', tool_call_id: `c-${ALL}`, block_id: 'svg2', media_type: 'image/svg+xml', data: b64(SVG) }),
    ev({ type: 'TOOL_RESULT_END', tool_call_id: `c-${ALL}`, state: 'success' }),
    ev({ type: 'REQUIRE_USER_CONFIRM', tool_calls: [{ type: 'tool_call', id: `c-${ALL}`, name: ALL, input: ALL }] }),
    ev({ type: 'EXTERNAL_EXECUTION_RESULT', execution_results: [{ type: 'tool_result', id: 'x', name: ALL, output: ALL, state: 'error' }] }),
    { kind: 'event', value: { type: 'CUSTOM', name: ALL, value: { html: ALL } } },
    ev({ type: ALL }),
    { kind: 'text', text: ALL }, // not JSON: shown as raw text, and quoted by diagnostics
    ev({ type: 'MODEL_CALL_END', input_tokens: 1, output_tokens: 2 }),
    ev({ type: 'REPLY_END', session_id: ALL, finished_reason: 'error', error: { type: 'unknown', message: ALL } }),
  ];
}

function pi(): Frame[] {
  const e = (v: Record<string, unknown>): Frame => ({ kind: 'event', value: v });
  return [
    e({ type: 'start' }),
    e({ type: 'thinking_start', contentIndex: 0 }),
    e({ type: 'thinking_delta', contentIndex: 0, delta: ALL }),
    e({ type: 'thinking_end', contentIndex: 0, contentSignature: ALL }),
    e({ type: 'text_start', contentIndex: 1 }),
    ...PAYLOADS.map((p) => e({ type: 'text_delta', contentIndex: 1, delta: p })),
    e({ type: 'text_end', contentIndex: 1 }),
    e({ type: 'toolcall_start', contentIndex: 2, id: ALL, toolName: ALL }),
    e({ type: 'toolcall_delta', contentIndex: 2, delta: JSON.stringify({ a: ALL }).slice(0, 40) }),
    e({ type: 'toolcall_delta', contentIndex: 2, delta: JSON.stringify({ a: ALL }).slice(40) }),
    e({ type: 'toolcall_end', contentIndex: 2 }),
    e({ type: ALL, contentIndex: 3 }),
    e({ type: 'error', reason: 'error', errorMessage: ALL, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } }),
  ];
}

/**
 * Values that `JSON.parse` reads but `String()` and `JSON.stringify` cannot write out: arrays nested 100,000 deep (they
 * recurse and overflow the stack) and objects with their own `toString` key (String() throws). A pi assistant-form
 * stream carries them in the message's role, name, stop reason, usage and a block, and as a delta; a pi proxy event
 * as a contentIndex. The panel must show every view of them without a render error.
 */
function unprintable(): Frame[] {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const notText = '{"toString":1}';
  const message = (text: string) => `{"role":${deep},"name":${notText},"content":[{"type":"text","text":"${text}","extra":${deep}}],"stopReason":${deep},"errorMessage":${notText},"usage":${deep}}`;
  const t = (text: string): Frame => ({ kind: 'text', text });
  return [
    t(`{"type":"start","partial":{"role":${deep},"name":${notText},"content":[],"usage":${deep}}}`),
    t(`{"type":"text_start","contentIndex":0,"partial":${message('')}}`),
    t(`{"type":"text_delta","contentIndex":0,"delta":"unprintable values","partial":${message('unprintable values')}}`),
    t(`{"type":"text_delta","contentIndex":${deep},"delta":${notText},"partial":${message('unprintable values')}}`),
    t(`{"type":"done","reason":${deep},"message":${message('unprintable values')}}`),
  ];
}

/** `bigLineMb`: size of the single-line text (10 in the full run; smaller keeps the everyday e2e suite quick). */
export function hostileCorpus(bigLineMb = 10): CorpusItem[] {
  const ten = 'x'.repeat(bigLineMb * 1024 * 1024 - 64) + PAYLOADS[0];
  return [
    { name: 'agentscope-markup-everywhere', frames: agentScope() },
    { name: 'pi-unprintable-values', frames: unprintable() },
    {
      name: 'pi-markup-everywhere', frames: pi(),
      requestBody: JSON.stringify({ model: { id: ALL, name: ALL, api: ALL, provider: ALL }, context: { systemPrompt: ALL, messages: [{ role: 'user', content: ALL, timestamp: 0 }] } }),
    },
    {
      name: `${bigLineMb}-megabyte-line`,
      // In pydantic's wire shape (id, created_at, metadata first), the shape the fast delta reading is for: at 10 MB
      // its regular expression once overflowed its backtrack stack and failed the whole analysis.
      frames: [
        { type: 'REPLY_START', reply_id: 'big', session_id: 's', name: 'big' },
        { type: 'TEXT_BLOCK_START', reply_id: 'big', block_id: 'b' },
        { type: 'TEXT_BLOCK_DELTA', reply_id: 'big', block_id: 'b', delta: ten },
        { type: 'REPLY_END', reply_id: 'big', session_id: 's' },
      ].map((e, i): Frame => ({ kind: 'event', value: { id: `e${i}`, created_at: '2026-01-01T00:00:00', metadata: {}, ...e } })),
    },
  ];
}

/** The item as the tap would have recorded it, with markup and hostile URLs in the connection's own fields too. */
export function corpusRecords(item: CorpusItem, id: string): CaptureRecord[] {
  const body = encodeFrames(item.frames, { eol: '\n', extraFields: false });
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += 65_536) chunks.push(body.subarray(at, at + 65_536));
  const records = recordsFor(chunks, { id, contentType: 'text/event-stream', endState: 'complete', ...(item.requestBody ? { requestBody: item.requestBody } : {}) });
  const conn = records[0] as ConnectionRecord;
  records[0] = {
    ...conn,
    url: `http://127.0.0.1/stream?q=${ALL}`,
    frameUrl: HOSTILE_URLS[0],
    statusText: ALL,
    requestHeaders: [['x-hostile', ALL], [ALL, 'value']],
    responseHeaders: [['content-type', 'text/event-stream'], ['x-hostile', ALL], ['link', `<${HOSTILE_URLS[2]}>; rel=preload`]],
  };
  return records;
}
