// The step diff: what one event changed in the message (appends detected, touched blocks found).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendedIn, diffJson, touchedBlocks } from '../../../panel/lib/json-diff.ts';

describe('diffJson', () => {
  it('reports a streamed text delta as an append on its block', () => {
    const before = { content: [{ type: 'text', text: 'Hel' }, { type: 'tool_call', input: '{"a"' }] };
    const after = { content: [{ type: 'text', text: 'Hello' }, { type: 'tool_call', input: '{"a"' }] };
    const changes = diffJson(before, after);
    expect(changes).toEqual([{ op: 'append', path: '/content/0/text', appended: 'lo' }]);
    expect(touchedBlocks(changes)).toEqual([0]);
    expect(appendedIn(changes, 0)).toEqual(new Map([['text', 'lo']]));
  });
  it('reports added blocks, replaced values and removed keys', () => {
    const changes = diffJson({ content: [], state: 'asking', x: 1 }, { content: [{ type: 'text', text: '' }], state: 'allowed' });
    expect(changes).toEqual([
      { op: 'add', path: '/content/0', value: { type: 'text', text: '' } },
      { op: 'replace', path: '/state', from: 'asking', value: 'allowed' },
      { op: 'remove', path: '/x', value: 1 },
    ]);
    expect(touchedBlocks(changes)).toEqual([0]);
  });
  it('escapes keys like JSON pointer', () => {
    expect(diffJson({ 'a/b': 1 }, { 'a/b': 2 })).toEqual([{ op: 'replace', path: '/a~1b', from: 1, value: 2 }]);
  });
  it('finds no change between equal values and some change between different ones', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(diffJson(a, structuredClone(a))).toEqual([]);
        if (JSON.stringify(a) !== JSON.stringify(b)) expect(diffJson(a, b).length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  // The recursive reading the diff had before it used a stack: the same changes in the same order.
  function recursiveDiff(before: unknown, after: unknown, path = '', out: unknown[] = []): unknown[] {
    const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
    if (Object.is(before, after)) return out;
    if (typeof before === 'string' && typeof after === 'string') {
      out.push(after.startsWith(before) ? { op: 'append', path, appended: after.slice(before.length) } : { op: 'replace', path, from: before, value: after });
    } else if (Array.isArray(before) && Array.isArray(after)) {
      for (let i = 0; i < Math.max(before.length, after.length); i++) {
        if (i >= before.length) out.push({ op: 'add', path: `${path}/${i}`, value: after[i] });
        else if (i >= after.length) out.push({ op: 'remove', path: `${path}/${i}`, value: before[i] });
        else recursiveDiff(before[i], after[i], `${path}/${i}`, out);
      }
    } else if (isObj(before) && isObj(after)) {
      for (const k of Object.keys(before)) {
        if (!(k in after)) out.push({ op: 'remove', path: `${path}/${esc(k)}`, value: before[k] });
        else recursiveDiff(before[k], after[k], `${path}/${esc(k)}`, out);
      }
      for (const k of Object.keys(after)) if (!(k in before)) out.push({ op: 'add', path: `${path}/${esc(k)}`, value: after[k] });
    } else out.push({ op: 'replace', path, from: before, value: after });
    return out;
  }

  it('lists the same changes in the same order as a recursive walk, on random and on mutated values', () => {
    const mutated = fc.jsonValue().chain((a) => fc.tuple(fc.constant(a), fc.jsonValue({ maxDepth: 2 }), fc.nat()).map(([v, patch, at]) => {
      // Replace one node of a copy (found by a walk), so most of the two values agree and the diff goes deep.
      const b = structuredClone(v) as unknown;
      const nodes: [Record<string, unknown> | unknown[], string | number][] = [];
      const walk = (x: unknown) => {
        if (Array.isArray(x)) x.forEach((y, i) => (nodes.push([x, i]), walk(y)));
        else if (x !== null && typeof x === 'object') for (const [k, y] of Object.entries(x)) (nodes.push([x as Record<string, unknown>, k]), walk(y));
      };
      walk(b);
      if (nodes.length) {
        const [parent, key] = nodes[at % nodes.length];
        (parent as Record<string | number, unknown>)[key] = patch;
      }
      return [v, b] as const;
    }));
    fc.assert(fc.property(fc.oneof(fc.tuple(fc.jsonValue(), fc.jsonValue()), mutated), ([a, b]) => {
      expect(diffJson(a, b)).toEqual(recursiveDiff(a, b));
    }), { numRuns: 500, seed: 7 });
  });

  it('diffs values nested 100,000 deep (from JSON.parse) without overflowing the stack', () => {
    const deep = (leaf: string) => JSON.parse(`${'['.repeat(100_000)}"${leaf}"${']'.repeat(100_000)}`) as unknown;
    expect(diffJson({ extra: deep('a') }, { extra: deep('a') })).toEqual([]);
    const changes = diffJson({ extra: deep('a') }, { extra: deep('ab') });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ op: 'append', appended: 'b' });
    expect(changes[0].path).toBe(`/extra${'/0'.repeat(100_000)}`);
  });
});
