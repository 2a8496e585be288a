import { describe, expect, it } from 'vitest';
import { elide, elideInline, PRETTY_DEPTH, prettyValue, SHOWN_CHARS } from '../../../panel/lib/elide.ts';

describe('elide', () => {
  it('keeps a text that fits whole', () => {
    expect(elide('abc', 10)).toEqual({ head: 'abc', hidden: 0, tail: '' });
    expect(elide('x'.repeat(SHOWN_CHARS)).hidden).toBe(0);
  });

  it('keeps a quarter from the head, the rest from the tail, and counts what it left out', () => {
    const text = 'h'.repeat(100) + 'm'.repeat(1000) + 't'.repeat(300);
    const e = elide(text, 400);
    expect(e.head).toBe('h'.repeat(100));
    expect(e.tail).toBe('t'.repeat(300));
    expect(e.hidden).toBe(1000);
    expect(e.head.length + e.hidden + e.tail.length).toBe(text.length);
  });

  it('never cuts a surrogate pair in two', () => {
    const text = '😀'.repeat(1000); // 2000 UTF-16 units
    for (const shown of [99, 100, 101, 102, 401]) {
      const e = elide(text, shown);
      expect(e.head.length + e.hidden + e.tail.length).toBe(text.length);
      expect(e.head).toBe('😀'.repeat(e.head.length / 2));
      expect(e.tail).toBe('😀'.repeat(e.tail.length / 2));
    }
  });

  it('elideInline names the hidden count between head and tail', () => {
    expect(elideInline('a'.repeat(10) + 'b'.repeat(100) + 'c'.repeat(30), 40)).toBe(`${'a'.repeat(10)}… [100 chars] …${'c'.repeat(30)}`);
    expect(elideInline('short', 40)).toBe('short');
  });
});

describe('prettyValue', () => {
  it('shortens long strings inside the JSON and leaves everything else as JSON.stringify has it', () => {
    const v = { text: 'x'.repeat(10_000), n: 1, nested: [{ s: 'ok' }] };
    const out = prettyValue(v, 100);
    expect(out.length).toBeLessThan(300);
    expect(out).toContain('[9,900 chars]');
    expect(JSON.parse(out).nested).toEqual([{ s: 'ok' }]);
    expect(prettyValue(v, Infinity)).toBe(JSON.stringify(v, null, 2));
  });

  it('never throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(prettyValue(cyclic)).toMatch(/^<unprintable: /);
    expect(prettyValue(10n)).toMatch(/^<unprintable: /);
    // Too deep for JSON.stringify (JSON.parse reads it): shown down to a depth, the rest marked.
    const deep = prettyValue({ a: 1, deep: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) });
    expect(deep).toMatch(/^\{\n {2}"a": 1,\n {2}"deep": \[/);
    expect(deep).toContain(`"[nested deeper than ${PRETTY_DEPTH} levels: not shown]"`);
    expect(prettyValue(undefined)).toBe('undefined');
  });
});
