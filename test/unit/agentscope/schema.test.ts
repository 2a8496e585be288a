// Validation as pydantic does it in JSON mode, and the Python behaviours append_event depends on.
// Expected values below were checked against the real reference (pydantic 2.13 / CPython 3.11) — see fixtures/README.md.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyAnyUrl, pyB64Concat, pyB64Decode, pyB64Encode, pyRepr } from '../../../src/core/agentscope/py-compat.ts';
import { AGENTSCOPE_EVENT_TYPES, parseWireEvent, validateEvent } from '../../../src/core/agentscope/schema.ts';
import { AssistantMsg, SystemMsg, UserMsg, getContentBlocks, getTextContent, hasContentBlocks, MsgConstructionError } from '../../../src/core/agentscope/message.ts';

const mce = (v: unknown) => validateEvent({ type: 'MODEL_CALL_END', reply_id: 'r', output_tokens: 1, input_tokens: v });
const confirm = (v: unknown) =>
  validateEvent({ type: 'USER_CONFIRM_RESULT', reply_id: 'r', confirm_results: [{ confirmed: v, tool_call: { id: 'a', name: 'b', input: '' } }] });

describe('schema', () => {
  it('knows the 28 event types of the reference', () => {
    expect(AGENTSCOPE_EVENT_TYPES.length).toBe(28);
    expect(new Set(AGENTSCOPE_EVENT_TYPES).size).toBe(28);
  });

  it('coerces ints like pydantic lax mode', () => {
    const ok: [unknown, number][] = [[1, 1], [1.0, 1], ['5', 5], [' 7 ', 7], ['1_000', 1000], ['1.0', 1], [true, 1], [false, 0], ['+3', 3], ['-3', -3]];
    for (const [input, want] of ok) {
      const r = mce(input);
      expect(r.ok && r.event.type === 'MODEL_CALL_END' && r.event.input_tokens, JSON.stringify(input)).toBe(want);
    }
    for (const bad of [1.5, '1e3', null, '0x10', '１２', [], {}, '1__0', '1_', '_1', '+_1', '12.', '1.', '-0.', '.0', '1.0.0']) expect(mce(bad).ok, JSON.stringify(bad)).toBe(false);
    // Whitespace as Rust trims it (pydantic-core): U+0085 and U+3000 yes, U+FEFF and U+200B no — unlike String.trim.
    for (const [input, want] of [['\u008512', 12], ['12\u3000', 12], ['\u00a012\u2028', 12], ['\u000b12\u000c', 12]] as const) {
      const r = mce(input);
      expect(r.ok && r.event.type === 'MODEL_CALL_END' && r.event.input_tokens, JSON.stringify(input)).toBe(want);
    }
    for (const bad of ['\ufeff12', '12\ufeff', '\u200b12', '\u001c12']) expect(mce(bad).ok, JSON.stringify(bad)).toBe(false);
    // A parsed number cannot say whether the text had 1e20 or 100000000000000000000: taken (see the wire cases below).
    expect(mce(1e20).ok).toBe(true);
    // pydantic-core refuses a string over 4300 bytes before parsing it (Python's int() digit limit, CVE-2020-10735).
    expect(mce('1'.repeat(4300)).ok).toBe(true);
    const long = mce(` ${'1'.repeat(4301)} `);
    expect(long.ok).toBe(false);
    expect(!long.ok && long.issues.map((i) => i.message)).toContain('Unable to parse input string as an integer, exceeded maximum size');
    expect(mce(`1${'_1'.repeat(3000)}`).ok).toBe(false); // 6001 characters, underscores count
  });

  it('reads a huge token count as pydantic does from the text: an integer literal of any size, no float from ±2^63 on', () => {
    const wire = (v: string, extra = '') => parseWireEvent(`{"type":"MODEL_CALL_END","reply_id":"r",${extra}"output_tokens":1,"input_tokens":${v}}`);
    const issues = (v: string, extra = '') => {
      const r = wire(v, extra);
      return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
    };
    for (const ok of ['12345678901234567890', '9223372036854775807', '-9223372036854775809', '18446744073709551616', '9.2233720368547748e18', '1e18', '"9223372036854775808.0"', '"99999999999999999999"'])
      expect(issues(ok), ok).toEqual([]);
    for (const bad of ['1e19', '1E19', '9223372036854775807.0', '-9223372036854775808.0', '-9.223372036854776e18', '12345678901234567890.0'])
      expect(issues(bad), bad).toEqual(['input_tokens: Unable to parse input string as an integer, exceeded maximum size']);
    // The top-level member decides, not a key of the same name deeper in, and the last of a key written twice.
    expect(issues('12345678901234567890', '"metadata":{"input_tokens":1e30},')).toEqual([]);
    expect(issues('12345678901234567890', '"input_tokens":1e19,')).toEqual([]);
    expect(issues('1e19', '"input_tokens":12345678901234567890,')).toHaveLength(1);
    expect(issues('1e19', '"x":"a\\"b,\\"input_tokens\\":1",')).toHaveLength(1);
  });

  it('reads an untyped hint item with both a text and a source as a data block, as pydantic\'s smart union does', () => {
    const hint = (item: unknown) => validateEvent({ type: 'HINT_BLOCK', reply_id: 'r', block_id: 'h', hint: [item] });
    const kind = (item: unknown) => {
      const r = hint(item);
      return r.ok && r.event.type === 'HINT_BLOCK' && Array.isArray(r.event.hint) ? r.event.hint[0].type : 'invalid';
    };
    const source = { data: 'QQ==', media_type: 'image/png' };
    expect(kind({ text: 'a', source, id: 'n' })).toBe('data');
    expect(kind({ text: 'a', source: { url: 'https://x.test/a.png', media_type: 'image/png' } })).toBe('data');
    expect(kind({ type: 'text', text: 'a', source })).toBe('text');
    expect(kind({ text: 'a', source: 'not a source' })).toBe('text');
    expect(kind({ source })).toBe('data');
    expect(kind({ text: 'a' })).toBe('text');
    expect(kind({ txt: 'a' })).toBe('invalid');
    const r = hint({ text: 'a', source });
    expect(r.ok && r.extras).toEqual(['hint.0.text']);
  });

  it('coerces bools like pydantic lax mode', () => {
    for (const [input, want] of [[true, true], [1, true], [0, false], [1.0, true], ['yes', true], ['Off', false], ['t', true], ['TRUE', true], ['1', true]] as const) {
      const r = confirm(input);
      expect(r.ok && r.event.type === 'USER_CONFIRM_RESULT' && r.event.confirm_results[0].confirmed, JSON.stringify(input)).toBe(want);
    }
    for (const bad of [2, ' true ', null, 'maybe']) expect(confirm(bad).ok).toBe(false);
  });

  it('accepts only strings for str fields and reports missing fields as pydantic does', () => {
    for (const bad of [1, true, null]) expect(validateEvent({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: bad }).ok).toBe(false);
    const r = validateEvent({ type: 'USER_CONFIRM_RESULT', reply_id: 'r', confirm_results: [{ confirmed: true }] });
    expect(r.ok ? [] : r.issues).toEqual([{ path: 'confirm_results.0.tool_call', message: 'Field required' }]);
  });

  it('parses from wire text: lone surrogate escapes are invalid, pairs and NaN metadata are fine', () => {
    const delta = (d: string) => `{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${d}"}`;
    expect(parseWireEvent(delta('\\ud83d\\ude00')).ok).toBe(true);
    for (const lone of ['\\ud83d', '\\ude00', '\\ud83dx', '\\ud83d\\u0041']) {
      const r = parseWireEvent(delta(lone));
      expect(r.ok, lone).toBe(false);
      expect(!r.ok && r.reason).toBe('json');
    }
    expect(parseWireEvent(delta('\\\\ud83d')).ok).toBe(true); // an escaped backslash, not an escape
    const nan = parseWireEvent('{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"NaN","metadata":{"a":NaN,"b":-Infinity}}');
    expect(nan.ok && nan.event.metadata).toEqual({ a: null, b: null });
    expect(nan.ok && nan.event.type === 'TEXT_BLOCK_DELTA' && nan.event.delta).toBe('NaN');
    expect(parseWireEvent('[1]').ok).toBe(false);
  });

  it('reports extra fields at any depth the schema knows', () => {
    const r = validateEvent({
      type: 'EXTERNAL_EXECUTION_RESULT',
      reply_id: 'r',
      junk: 1,
      metadata: { free: 'form' },
      execution_results: [{ id: 'c', name: 't', output: [{ type: 'text', text: 'x', color: 'red' }], extra: true }],
    });
    expect(r.ok && r.extras.sort()).toEqual(['execution_results.0.extra', 'execution_results.0.output.0.color', 'junk']);
  });

  it('enforces exactly one of data/url and validates nested URLs at validation time', () => {
    const dd = (f: object) => validateEvent({ type: 'TOOL_RESULT_DATA_DELTA', reply_id: 'r', tool_call_id: 'c', media_type: 'm', ...f });
    expect(dd({}).ok).toBe(false);
    expect(dd({ data: 'x', url: 'https://x.org' }).ok).toBe(false);
    expect(dd({ data: 'x', url: null }).ok).toBe(true);
    expect(dd({ url: 'not a url' }).ok).toBe(true); // a plain str here: append_event raises later
    const hint = (url: string) => validateEvent({ type: 'HINT_BLOCK', reply_id: 'r', block_id: 'h', hint: [{ type: 'data', source: { type: 'url', url, media_type: 'm' } }] });
    expect(hint('not a url').ok).toBe(false);
    const good = hint('HTTPS://Example.COM');
    expect(good.ok && good.event.type === 'HINT_BLOCK' && Array.isArray(good.event.hint) && good.event.hint[0]).toMatchObject({ source: { url: 'https://example.com/' } });
  });
});

describe('Python behaviours', () => {
  it('b64decode is lenient like CPython and raises where it raises', () => {
    const dec = (s: string) => Buffer.from(pyB64Decode(s)).toString('latin1');
    expect(dec('YW\nJj')).toBe('abc');
    expect(dec('*Z2hp')).toBe('ghi');
    expect(dec('====')).toBe('');
    expect(dec('YQ===')).toBe('a');
    expect(dec('YQ==YQ==')).toBe('a');
    expect(() => pyB64Decode('YQ')).toThrow('Incorrect padding');
    expect(() => pyB64Decode('PD8-Pz8_')).toThrow('Incorrect padding');
    expect(() => pyB64Decode('Y')).toThrow('number of data characters (1)');
    expect(() => pyB64Decode('YWJjY')).toThrow('number of data characters (5)');
    expect(() => pyB64Decode('é')).toThrow('only ASCII');
    expect(pyB64Concat('YQ==', 'YmM=')).toBe('YWJj');
  });

  it('b64 encode/decode agree with Node Buffer on canonical input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const enc = pyB64Encode(bytes);
        expect(enc).toBe(Buffer.from(bytes).toString('base64'));
        expect(Buffer.from(pyB64Decode(enc)).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('normalises URLs like pydantic AnyUrl', () => {
    expect(pyAnyUrl('https://example.com')).toEqual({ ok: true, url: 'https://example.com/' });
    expect(pyAnyUrl('HTTPS://Example.COM:443/Path/../Img.PNG?q=a b#frag')).toEqual({ ok: true, url: 'https://example.com/Img.PNG?q=a%20b#frag' });
    expect(pyAnyUrl('https://例子.测试/路径')).toEqual({ ok: true, url: 'https://xn--fsqu00a.xn--0zwm56d/%E8%B7%AF%E5%BE%84' });
    expect(pyAnyUrl('not a url')).toEqual({ ok: false, message: 'Input should be a valid URL, relative URL without a base' });
    expect(pyAnyUrl('')).toEqual({ ok: false, message: 'Input should be a valid URL, input is empty' });
  });

  it('repr quotes like Python', () => {
    expect(pyRepr('a')).toBe("'a'");
    expect(pyRepr("o'q")).toBe(`"o'q"`);
    expect(pyRepr(`a'b"c`)).toBe(`'a\\'b"c'`);
  });
});

describe('message helpers', () => {
  const clock = { now: () => 'T', newId: () => 'ID' };
  it('factories enforce role constraints and finished_at defaults', () => {
    expect(UserMsg('u', 'hi', { clock, created_at: 'C' })).toMatchObject({ role: 'user', finished_at: 'C', content: [{ type: 'text', text: 'hi', id: 'ID' }] });
    expect(AssistantMsg('a', 'x', { clock }).finished_at).toBeNull();
    expect(SystemMsg('s', [], { clock }).finished_at).toBe('T');
    const call = { type: 'tool_call' as const, id: 'c', name: 'n', input: '', state: 'pending' as const, suggested_rules: [], created_at: 'T', finished_at: null };
    expect(() => UserMsg('u', [call as never])).toThrow(MsgConstructionError);
    expect(() => SystemMsg('s', [call as never])).toThrow('System message can only contain text blocks.');
    expect(() => AssistantMsg('a', [{ type: 'bogus' } as never])).toThrow(MsgConstructionError);
  });

  it('get/has content blocks and text content', () => {
    const msg = AssistantMsg('a', [], { clock });
    expect(getTextContent(msg)).toBeNull();
    expect(hasContentBlocks(msg)).toBe(false);
    const two = { ...msg, content: [...UserMsg('u', 'a', { clock }).content, ...UserMsg('u', 'b', { clock }).content] };
    expect(getTextContent(two, '|')).toBe('a|b');
    expect(getContentBlocks(two, 'text').length).toBe(2);
    expect(getContentBlocks(two, ['data', 'hint'])).toEqual([]);
    expect(hasContentBlocks(two, ['data', 'text'])).toBe(true);
  });
});

describe('nesting depth as pydantic-core parses it', () => {
  // Measured on pydantic 2.13: a metadata object 199 levels inside the event parses, 200 is "recursion limit exceeded".
  const event = (n: number) =>
    `{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b","metadata":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`;
  it('accepts 199 levels and rejects 200 like the reference; a 10,000-deep value does not overflow', () => {
    expect(parseWireEvent(event(198)).ok).toBe(true);
    const tooDeep = parseWireEvent(event(200));
    expect(tooDeep.ok).toBe(false);
    expect(!tooDeep.ok && tooDeep.issues[0].message).toMatch(/recursion limit exceeded/);
    expect(parseWireEvent(event(10_000)).ok).toBe(false);
    expect(() => validateEvent(JSON.parse(event(10_000)))).not.toThrow();
  });
});
