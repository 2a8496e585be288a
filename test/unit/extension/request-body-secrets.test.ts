// A JSON request body past the tap's 1 MiB cap, read as bytes (a Request, a buffer or typed array, a Blob), was cut
// before its secrets were masked: the masking parses the JSON, the cut text did not parse, and the credentials in
// the kept head (an api_key, a token) were stored — and exported — in clear (a string body was masked whole first).
// Now the head is masked as the start of a JSON text (maskSecretsInJsonHead), as the whole body would be.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeHeader, readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { exportHar } from '../../../src/core/capture/har.ts';
import { importHar } from '../../../src/core/capture/har-import.ts';
import type { BodyRecord, Capture, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { maskJsonHead, maskSecretsInJson, maskSecretsInJsonHead } from '../../../src/core/capture/credential-mask.ts';
import { captureBody, deferBody, deferRequestBody, REQUEST_BODY_CAP } from '../../../src/extension/tap/request-info.ts';

/** A JSON body past the cap with credentials near its start, at the top and nested. */
const body = JSON.stringify({
  api_key: 'sk-SECRET-1',
  options: { accessToken: 'SECRET-2', temperature: 0.5, auth: { password: 'SECRET-3' } },
  authorization: 'Bearer SECRET-4',
  messages: [{ role: 'user', content: 'x'.repeat(REQUEST_BODY_CAP + 100) }],
});
const bytes = new TextEncoder().encode(body);

/** The body as the tap records it, given in each form it reads as bytes. */
async function recordedAs(): Promise<[string, BodyRecord][]> {
  const request = new Request('http://127.0.0.1/api', { method: 'POST', body: bytes });
  return [
    ['Uint8Array', captureBody(bytes) as BodyRecord],
    ['ArrayBuffer', captureBody(bytes.slice().buffer) as BodyRecord],
    ['DataView', captureBody(new DataView(bytes.slice().buffer)) as BodyRecord],
    ['Blob', (await captureBody(new Blob([bytes]))) as BodyRecord],
    ['deferred Uint8Array (fetch/XHR)', (deferBody(bytes) as () => BodyRecord)()],
    ['deferred ArrayBuffer', (deferBody(bytes.slice().buffer) as () => BodyRecord)()],
    ['deferred Blob', (await (deferBody(new Blob([bytes])) as () => Promise<BodyRecord>)())],
    ['Request', (await (deferRequestBody(request) as () => Promise<BodyRecord>)())],
  ];
}

describe('a JSON body past the cap, read as bytes', () => {
  const asString = captureBody(body) as BodyRecord;

  it('keeps its head with the credentials masked, as a string body has them', async () => {
    const head = '{"api_key":"•••","options":{"accessToken":"•••","temperature":0.5,"auth":{"password":"•••"}},"authorization":"•••","messages":';
    expect(asString.text?.slice(0, head.length)).toBe(head);
    const recorded = await recordedAs();
    // Every form at once (the failure names each one that leaks).
    expect(Object.fromEntries(recorded.map(([form, r]) => [form, r.text?.match(/.{0,12}SECRET-\d/g) ?? []]))).toEqual(Object.fromEntries(recorded.map(([form]) => [form, []])));
    for (const [form, record] of recorded) {
      expect(record, form).toMatchObject({ size: bytes.length, truncated: true });
      expect(record.text?.slice(0, head.length), form).toBe(head);
      expect(new TextEncoder().encode(record.text).length, form).toBeLessThanOrEqual(REQUEST_BODY_CAP);
    }
  });

  it('the capture log and the HAR carry the masked head as it is (and a HAR read without Replyscope\'s fields too)', async () => {
    const requestBody = (await (deferRequestBody(new Request('http://127.0.0.1/api', { method: 'POST', body: bytes })) as () => Promise<BodyRecord>)());
    const conn: ConnectionRecord = {
      kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'http://127.0.0.1/app', method: 'POST', url: 'http://127.0.0.1/api',
      requestHeaders: [['content-type', 'application/json'], ['accept', 'text/event-stream']], requestBody, status: 200, statusText: 'OK',
      responseHeaders: [['content-type', 'text/event-stream']], startTime: 1_000, responseTime: 1_010,
    };
    const data = 'data: {"type":"done"}\n\n';
    const capture: Capture = { header: makeHeader('t'), records: [conn, { kind: 'chunk', conn: 'c1', t: 1_020, bytes: data.length, text: data }, { kind: 'end', conn: 'c1', t: 1_030, state: 'complete' }] };
    const bodyOf = (c: Capture) => c.records.find((r): r is ConnectionRecord => r.kind === 'connection')?.requestBody;
    const log = writeCaptureLog(capture);
    expect(log).not.toMatch(/SECRET/);
    expect(bodyOf(readCaptureLog(log))).toEqual(requestBody);
    const har = JSON.stringify(exportHar(capture));
    expect(har).not.toMatch(/SECRET/);
    expect(bodyOf(importHar(JSON.parse(har)))).toEqual(requestBody);
    const plain = JSON.parse(har) as { log: { entries: Record<string, unknown>[]; _replyscope?: unknown } };
    delete plain.log._replyscope;
    for (const e of plain.log.entries) delete e._replyscope;
    expect(bodyOf(importHar(plain))).toEqual(requestBody);
  });
});

/** The whole-body masking (maskSecretsInJson, through a string body within the cap). */
const maskedWhole = (text: string): string => (captureBody(text) as BodyRecord).text as string;

describe('the head of a JSON body masked as the whole body would be', () => {
  const m = (text: string) => maskSecretsInJsonHead(text, JSON);

  it('a secret the cut ends is masked; an empty one, and a cut right after its opening quote, stay', () => {
    expect(m('{"model":"m","apiKey":"sk-12')).toBe('{"model":"m","apiKey":"•••');
    expect(m('{"apiKey":"sk-\\')).toBe('{"apiKey":"•••');
    expect(m('{"apiKey":"sk-\\"1')).toBe('{"apiKey":"•••');
    expect(m('{"apiKey": "')).toBe('{"apiKey": "');
    expect(m('{"apiKey":""')).toBe('{"apiKey":""');
    expect(m('{"apiKey":')).toBe('{"apiKey":');
    expect(m('{"apiK')).toBe('{"apiK');
    expect(m('{"a":"x","apiKey" : "sk-1" , "b":"y"')).toBe('{"a":"x","apiKey" : "•••" , "b":"y"');
  });

  it('keys as JSON.parse reads them: escapes, camelCase, snake_case, any depth; objects under a credential key are read', () => {
    expect(m('{"api\\u005fkey":"s1","x":{"client_secret":"s2","y":[{"Authorization":"s3"}]},"credentials":{"user":"u","password":"s4"}')).toBe(
      '{"api\\u005fkey":"•••","x":{"client_secret":"•••","y":[{"Authorization":"•••"}]},"credentials":{"user":"u","password":"•••"}',
    );
    expect(m('[{"token":"s1"},"token",{"a":"token","b":"apiKey:\\"s\\""}')).toBe('[{"token":"•••"},"token",{"a":"token","b":"apiKey:\\"s\\""}');
  });

  it('what the whole-body masking leaves, it leaves: numbers, literals, other keys', () => {
    const head = '{"token":123,"apiKey":null,"password":true,"keys":"k","tokens":"t","monkey":"m","x":';
    expect(m(head)).toBe(head);
    expect(maskedWhole(`${head}1}`)).toBe(`${head}1}`);
  });

  it('strings in an array under a credential key are masked (nested arrays too; an object in it by its own keys)', () => {
    const whole = '{"credentials":["sk-a",["sk-b",""],{"name":"n","token":"sk-c"},7],"list":["kept"]}';
    const masked = '{"credentials":["•••",["•••",""],{"name":"n","token":"•••"},7],"list":["kept"]}';
    expect(maskedWhole(whole)).toBe(masked);
    for (let cut = 1; cut <= whole.length; cut++) {
      const head = m(whole.slice(0, cut));
      expect(masked.startsWith(head) || masked.startsWith(head.replace(/"?$/, ''))).toBe(true);
      for (const secret of ['sk-a', 'sk-b', 'sk-c']) expect(head).not.toContain(secret);
    }
  });

  it('the whole-body masking: a credential written twice leaves neither value in clear; a __proto__ member is kept', () => {
    expect(maskedWhole('{"token":"sk-first","token":null}')).toBe('{"token":null}');
    expect(maskedWhole('{"__proto__":{"a":1},"apiKey":"sk"}')).toBe('{"__proto__":{"a":1},"apiKey":"•••"}');
  });

  it('a key written twice is masked each time (JSON.parse keeps the last, which the cut may hide)', () => {
    expect(m('{"token":"s1","token":"s2","x":"')).toBe('{"token":"•••","token":"•••","x":"');
  });

  it('a body within the cap that starts as JSON but does not parse is masked by its head, not kept in clear', async () => {
    // Not quite JSON (a trailing comma, JSON5's comments, NDJSON lines): the whole-body masking could not parse it.
    const cases: [string, string][] = [
      ['{"apiKey":"sk-SECRET-1","q":"hi",}', '{"apiKey":"•••","q":"hi",}'],
      ['{"q":"hi"}\n{"token":"SECRET-2"}\n', '{"q":"hi"}\n{"token":"•••"}\n'],
      ['  [{"password":"SECRET-3"} // sent\n]', '  [{"password":"•••"} // sent\n]'],
    ];
    for (const [sent, kept] of cases) {
      const asBytes = new TextEncoder().encode(sent);
      expect(captureBody(sent), sent).toEqual({ text: kept, size: asBytes.length });
      expect(captureBody(asBytes), sent).toEqual({ text: kept, size: asBytes.length });
      expect(await captureBody(new Blob([asBytes])), sent).toEqual({ text: kept, size: asBytes.length });
    }
  });

  it('a body nested 100,000 deep within the cap is masked by its head: the walk and JSON.stringify overflowed the stack', async () => {
    // JSON.parse reads it; masking the parsed value recursed, and the RangeError went out of the masking: a fetch's
    // record lost its request body, and an XHR's response-head listener (xhr-tap.ts onHeaders) has no catch around it.
    const nested = `${'['.repeat(100_000)}{"apiKey":"sk-SECRET-1","q":"hi"}${']'.repeat(100_000)}`;
    const sent = `{"token":"SECRET-2","messages":${nested}}`;
    const kept = sent.replace('sk-SECRET-1', '•••').replace('SECRET-2', '•••');
    const asBytes = new TextEncoder().encode(sent);
    expect(maskSecretsInJson(sent, JSON)).toBe(kept);
    expect(captureBody(sent)).toEqual({ text: kept, size: asBytes.length });
    expect(captureBody(asBytes)).toEqual({ text: kept, size: asBytes.length });
    expect(await captureBody(new Blob([asBytes]))).toEqual({ text: kept, size: asBytes.length });
  });

  it('takes no JSON functions by default: a caller in the page cannot parse with the page\'s JSON unawares', () => {
    // Checked by tsc (npx tsc --noEmit -p .): each call without them is an error. Not run: a parse that throws is a
    // text that does not parse, masked by its head without JSON.parse.
    const calls = [
      // @ts-expect-error the JSON functions are required
      () => maskSecretsInJson('{"apiKey":"sk-1"}'),
      // @ts-expect-error the JSON functions are required
      () => maskSecretsInJsonHead('{"apiKey":"sk-1'),
      // @ts-expect-error the JSON functions are required
      () => maskJsonHead('{"apiKey":"sk-1'),
    ];
    expect(calls).toHaveLength(3);
  });

  it('text that is no JSON object or array is kept as it is', () => {
    for (const t of ['token=abc', '"token":"abc"', 'x{"token":"abc"', '', '  ', '<ReadableStream body: not captured>']) expect(m(t)).toBe(t);
  });

  it('a head that grew past the cap by its masks (••• is 9 bytes) is cut again, at a character boundary below it', async () => {
    const big = JSON.stringify({ a: Array.from({ length: 90_000 }, (_, k) => ({ token: `Ω${k % 10}` })) });
    const bytes = new TextEncoder().encode(big);
    expect(bytes.length).toBeGreaterThan(REQUEST_BODY_CAP);
    for (const record of [captureBody(bytes) as BodyRecord, (await captureBody(new Blob([bytes]))) as BodyRecord]) {
      expect(record).toMatchObject({ size: bytes.length, truncated: true });
      const kept = new TextEncoder().encode(record.text).length;
      expect(kept).toBeLessThanOrEqual(REQUEST_BODY_CAP);
      expect(REQUEST_BODY_CAP - kept).toBeLessThan(4);
      expect(record.text).not.toContain('Ω');
      expect(maskSecretsInJsonHead(big, JSON).startsWith(record.text as string)).toBe(true);
    }
  });
});

// Property: for random JSON bodies with credentials at random depths — written with random whitespace and escapes,
// keys spelt with \u escapes, strings holding JSON's own punctuation and credential names — and every cut point, the
// head masked is the start of the whole body masked, and none of the characters of a value the whole-body masking
// masked survives. Those values are the only ones written with the characters in SECRET_CHARS.
const SECRET_CHARS = ['Ω', 'ж', '🔑', 'ß'];
const SECRET_KEYS = ['api_key', 'apiKey', 'accessToken', 'refresh_token', 'client_secret', 'password', 'passwd', 'Authorization', 'authorization', 'credentials', 'token', 'x-api-key', 'key'];
const OTHER_KEYS = ['model', 'id', 'keys', 'tokens', 'monkey', 'secretary', 'keyboard', 'messages', 'content', 'authorName', 'tokenizer', 'passwordless', ''];

type J = null | boolean | number | string | J[] | { members: [string, J][] };
const plainString = fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '"', '\\', ':', ',', '{', '}', '[', ']', '\n', 'é', '😀', '"token":"', 'apiKey'), maxLength: 6 });
const secretString = fc.tuple(fc.string({ unit: fc.constantFrom(...SECRET_CHARS, '"', '\\', '\n', '/', ' ', 'x'), maxLength: 4 }), fc.constantFrom(...SECRET_CHARS), fc.string({ unit: fc.constantFrom(...SECRET_CHARS, '"', '\\', 'x'), maxLength: 4 }))
  .map(([a, b, c]) => a + b + c);
const { value: jsonValue } = fc.letrec<{ value: J; object: J; member: [string, J] }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), plainString,
    fc.array(tie('value'), { maxLength: 4 }), tie('object'),
  ),
  // Keys once per object: JSON.parse keeps a repeated key's last value, and the whole-body masking, which writes the
  // body anew only when it masked something, keeps a secret an unmasked repeat hides (`{"token":"s","token":null}`
  // is kept as it is); the head masking masks each (see above). JSON.stringify never repeats a key.
  object: fc.uniqueArray(tie('member'), { maxLength: 6, selector: ([k]) => k }).map((members) => ({ members })),
  member: fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...OTHER_KEYS), tie('value')) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...SECRET_KEYS), secretString) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...SECRET_KEYS), tie('value')) }, // masked only if a string (plain: no secret characters)
  ),
}));

/** `v` as JSON text, with whitespace and optional escapes chosen by `rand`. */
function write(v: J, rand: () => number): string {
  const ws = () => [' ', '', '', '\n  ', '\t', '\r\n'][Math.floor(rand() * 6)];
  const str = (s: string) => `"${[...s].map((ch) => {
    if (ch === '"' || ch === '\\' || ch < ' ') return JSON.stringify(ch).slice(1, -1);
    if (ch === '/' && rand() < 0.5) return '\\/';
    if (rand() < 0.08) return [...ch].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    return ch;
  }).join('')}"`;
  if (v === null || typeof v === 'boolean' || typeof v === 'number') return JSON.stringify(v);
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => write(x, rand)).join(`${ws()},${ws()}`)}${ws()}]`;
  return `{${ws()}${v.members.map(([k, x]) => `${str(k)}${ws()}:${ws()}${write(x, rand)}`).join(`${ws()},${ws()}`)}${ws()}}`;
}

const bodyArb = fc.tuple(fc.oneof(fc.array(jsonValue, { maxLength: 4 }), jsonValue.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))), fc.integer())
  .map(([v, seed]) => {
    let state = seed >>> 0;
    const rand = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    return `${[' ', '', '\n'][seed & 1]}${write(v, rand)}`;
  });

const hasSecretChars = (s: string): boolean => SECRET_CHARS.some((c) => s.includes(c));

describe('property: every cut of random JSON bodies with credentials', () => {
  it('the whole-body masking masks every value written with the secret characters (the generator\'s premise), and the head masking of the whole body reads the same', () => {
    fc.assert(fc.property(bodyArb, (body) => {
      const whole = maskedWhole(body);
      expect(hasSecretChars(whole)).toBe(false);
      expect(JSON.parse(maskSecretsInJsonHead(body, JSON))).toEqual(JSON.parse(whole));
    }), { numRuns: 500 });
  });

  it('at every cut, the head masked is the start of the whole body masked, with no secret character left', () => {
    let cuts = 0;
    let secretsCut = 0;
    fc.assert(fc.property(bodyArb, (body) => {
      const all = maskSecretsInJsonHead(body, JSON);
      for (let n = 0; n <= body.length; n++) {
        if (n > 0 && n < body.length && body.charCodeAt(n) >= 0xdc00 && body.charCodeAt(n) <= 0xdfff) continue; // bytes are cut between characters
        const head = maskSecretsInJsonHead(body.slice(0, n), JSON);
        cuts++;
        if (hasSecretChars(body.slice(0, n))) secretsCut++;
        if (hasSecretChars(head) || !all.startsWith(head)) {
          expect({ cut: body.slice(0, n), head }).toEqual({ cut: body.slice(0, n), head: 'no secret character, the start of the whole masked' });
        }
      }
    }), { numRuns: 1000 });
    expect(secretsCut).toBeGreaterThan(cuts / 10); // the cuts did fall past credentials
  });

  it('through the tap: a body past the cap, as bytes and as a Blob, cut at a random point of its JSON', async () => {
    await fc.assert(fc.asyncProperty(bodyArb, fc.double({ min: 0, max: 1, noNaN: true }), async (body, at) => {
      const inner = new TextEncoder().encode(body).length;
      const k = Math.floor(at * inner);
      const pad = REQUEST_BODY_CAP - k - '{"pad":"","body":'.length;
      const text = `{"pad":"${'x'.repeat(pad)}","body":${body}${' '.repeat(inner + 1)}}`;
      const bytes = new TextEncoder().encode(text);
      expect(bytes.length).toBeGreaterThan(REQUEST_BODY_CAP);
      const all = maskSecretsInJsonHead(text, JSON);
      for (const record of [captureBody(bytes) as BodyRecord, (await captureBody(new Blob([bytes]))) as BodyRecord]) {
        expect(record.truncated).toBe(true);
        expect(hasSecretChars(record.text as string)).toBe(false);
        expect(all.startsWith(record.text as string)).toBe(true);
        expect(new TextEncoder().encode(record.text).length).toBeLessThanOrEqual(REQUEST_BODY_CAP);
      }
      expect(hasSecretChars((captureBody(text) as BodyRecord).text as string)).toBe(false); // a string body: masked whole, then cut
    }), { numRuns: 40 });
  });
});
