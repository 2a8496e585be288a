// The resumed client comparison (ClientComparer) must answer exactly what a comparison from scratch answers, after
// every chunk of a body read chunk by chunk — including bodies where the client stops (JSON.parse throws), frames
// the client drops or splits, CR line ends, named events, and unterminated tails.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientComparer, compareWithAgentScopeClient } from '../../../src/core/frames/client-comparison.ts';
import { AgentScopeClientReader } from '../../../src/core/frames/client-reading.ts';
import { SseSpecDecoder } from '../../../src/core/frames/sse-spec.ts';
import { cut, cutsFor, utf8 } from './helpers.ts';

const piece = fc.constantFrom(
  'data: {"a":1}\n\n',
  'data: {"b":"x"}\n\n',
  'data: {"c":[1,2]}\n\n',
  'data: {"a":1}\n',
  'data: not json\n\n',
  'data:{"no":"space"}\n\n',
  'data: {"x":1}\ndata: {"y":2}\n\n',
  'event: custom\ndata: {"named":1}\n\n',
  'data: {"cr":1}\r\r',
  'data: {"crlf":1}\r\n\r\n',
  ': comment\n\n',
  'data: \n\n',
  '\n',
  'id: 7\n',
  'data: {"tail":1}',
);

/** A body (ASCII) and where it is cut into chunks. */
const body = fc.array(piece, { minLength: 1, maxLength: 30 }).map((pieces) => pieces.join('')).chain((text) =>
  cutsFor(text.length).map((cuts) => cut(utf8(text), cuts).map((c) => new TextDecoder().decode(c))));

describe('ClientComparer', () => {
  it('answers after every chunk what a comparison from scratch answers, and at the end too', () => {
    let resumed = 0;
    fc.assert(
      fc.property(body, fc.boolean(), (chunks, pi) => {
        const spec = new SseSpecDecoder();
        const client = new AgentScopeClientReader();
        const comparer = new ClientComparer();
        const name = pi ? "pi-agent-core's streamProxy" : undefined;
        chunks.forEach((chunk, i) => {
          spec.read(chunk, i);
          client.read(chunk, i);
          const got = comparer.compare(spec.frames, undefined, client, undefined, name);
          const want = compareWithAgentScopeClient(spec.frames, undefined, client, undefined, name);
          expect(got.diagnostics).toEqual(want.diagnostics);
          expect([...got.notes]).toEqual([...want.notes]);
          if (i > 0) resumed++;
        });
        const specTail = spec.finish();
        const clientTail = client.finish();
        const got = comparer.compare(spec.frames, specTail, client, clientTail, name);
        const want = compareWithAgentScopeClient(spec.frames, specTail, client, clientTail, name);
        expect(got.diagnostics).toEqual(want.diagnostics);
        expect([...got.notes]).toEqual([...want.notes]);
      }),
      { seed: 5, numRuns: 600 },
    );
    expect(resumed).toBeGreaterThan(1000);
  });

  it('starts over when the client is renamed (the messages name it)', () => {
    const spec = new SseSpecDecoder();
    const client = new AgentScopeClientReader();
    const comparer = new ClientComparer();
    spec.read('data: {"x":1}\ndata: {"y":2}\n\n', 0);
    client.read('data: {"x":1}\ndata: {"y":2}\n\n', 0);
    expect(comparer.compare(spec.frames, undefined, client, undefined).diagnostics[0].message).toContain('the AgentScope client');
    expect(comparer.compare(spec.frames, undefined, client, undefined, 'pi').diagnostics[0].message).toContain('pi parses');
  });
});
