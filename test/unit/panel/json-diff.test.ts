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
});
