// pi's structural equality of JSON values: a member one side lacks is a difference, whatever the other side's
// prototype holds under its name.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { jsonEqual } from '../../../src/core/pi/message-check.ts';
import { captureOf } from '../analysis/support.ts';

describe('pi jsonEqual', () => {
  it('a "__proto__" member (JSON.parse makes it an own key) is not equal to a missing one', () => {
    expect(jsonEqual(JSON.parse('{"__proto__":{}}'), { x: 1 })).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":{}}'), JSON.parse('{"__proto__":{}}'))).toBe(true);
    expect(jsonEqual(JSON.parse('{"constructor":{}}'), { x: 1 })).toBe(false);
  });

  it("a carried message that swapped a member for \"__proto__\" is a changed step", () => {
    const partial = (extra: string) => `{"role":"assistant","content":[{"type":"text","text":""}],${extra}}`;
    const body = ['{"type":"start","partial":{"role":"assistant","content":[]}}',
      `{"type":"text_start","contentIndex":0,"partial":${partial('"x":{}')}}`,
      `{"type":"text_end","contentIndex":0,"content":"","partial":${partial('"__proto__":{}')}}`].map((l) => `data: ${l}\n\n`).join('');
    const [c] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(body)]) });
    expect(c.dialect).toBe('pi-assistant');
    expect(c.replies[0].stepStatus).toEqual(['changed', 'changed', 'changed']);
  });
});
