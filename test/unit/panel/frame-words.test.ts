// A frame named in words and as a frame ("data frame 470"), not by its kind's field value ("DATA") or as "#470".
import { describe, expect, it } from 'vitest';
import { frameHeaderWords, frameKindWords, frameNumberTitle } from '../../../panel/lib/frame-words.ts';

describe('frame words', () => {
  it('each kind in words, a message by its transport', () => {
    expect(frameKindWords('data', 'fetch')).toBe('data frame');
    expect(frameKindWords('comment', 'xhr')).toBe('comment frame');
    expect(frameKindWords('ndjson', 'fetch')).toBe('NDJSON line');
    expect(frameKindWords('message', 'websocket')).toBe('WebSocket message');
    expect(frameKindWords('message', 'eventsource')).toBe('EventSource message');
  });

  it('the raw frame header: kind, number from 0 (as the list keeps it), event name and id', () => {
    expect(frameHeaderWords({ index: 470, kind: 'data' }, 'fetch')).toBe('data frame 470 of the body');
    expect(frameHeaderWords({ index: 3, kind: 'data', event: 'delta', id: '42' }, 'fetch')).toBe('data frame 3 of the body, event: delta, id: 42');
    expect(frameHeaderWords({ index: 7, kind: 'message' }, 'websocket')).toBe('WebSocket message 7');
  });

  it('says why a frame\'s number runs ahead of its event\'s', () => {
    expect(frameNumberTitle({ index: 470 }, 469)).toMatch(/heartbeats.*frames too — so frame 470 holds event #469$/);
    expect(frameNumberTitle({ index: 5 }, 5)).not.toMatch(/holds/);
  });
});
