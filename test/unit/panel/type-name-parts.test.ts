import { describe, expect, it } from 'vitest';
import { TYPE_TAIL_MAX, typeNameParts } from '../../../panel/lib/type-name-parts.ts';

describe('typeNameParts', () => {
  it('keeps the last word of AgentScope and pi types apart, separator with it', () => {
    expect(typeNameParts('TEXT_BLOCK_DELTA')).toEqual({ head: 'TEXT_BLOCK', tail: '_DELTA' });
    expect(typeNameParts('TEXT_BLOCK_START')).toEqual({ head: 'TEXT_BLOCK', tail: '_START' });
    expect(typeNameParts('REPLY_END')).toEqual({ head: 'REPLY', tail: '_END' });
    expect(typeNameParts('toolcall_delta')).toEqual({ head: 'toolcall', tail: '_delta' });
    expect(typeNameParts('tool_execution_update')).toEqual({ head: 'tool_execution', tail: '_update' });
    expect(typeNameParts('response.output_text.delta')).toEqual({ head: 'response.output_text', tail: '.delta' });
  });

  it('leaves whole in the head a name of one word, or with no word after or before its separator', () => {
    for (const t of ['done', 'CUSTOM', '', 'x', '_END', 'END_', 'a__', '__']) expect(typeNameParts(t), t).toEqual({ head: t, tail: '' });
  });

  it('parts always join to the name', () => {
    for (const t of ['A_B', 'a-b-c', 'x:y', 'p/q/r', 'TOOL_RESULT_TEXT_DELTA', 'a_b_']) {
      const { head, tail } = typeNameParts(t);
      expect(head + tail).toBe(t);
    }
  });

  it('does not keep a long last word whole (cut from its end as any long name)', () => {
    const long = `EVENT_${'W'.repeat(TYPE_TAIL_MAX)}`;
    expect(typeNameParts(long)).toEqual({ head: long, tail: '' });
    const fits = `EVENT_${'W'.repeat(TYPE_TAIL_MAX - 1)}`;
    expect(typeNameParts(fits).tail).toBe(`_${'W'.repeat(TYPE_TAIL_MAX - 1)}`);
  });
});

describe('typeNameParts of a very long name', () => {
  it('leaves it whole, unsplit', () => {
    const t = `${'A_'.repeat(100_000)}END`;
    expect(typeNameParts(t)).toEqual({ head: t, tail: '' });
  });
});
