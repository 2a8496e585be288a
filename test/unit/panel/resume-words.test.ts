// The panel's words for a resumed stream: connections named as the list numbers them, in the core's diagnostic
// messages too, and the replies a later connection continued.
import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import { connectionName, connectionNumbers, continuedBy, resumeText, withConnectionNames } from '../../../panel/lib/resume-words.ts';

const conn = (id: string, extra: Partial<ConnectionView> = {}) => ({ record: { id }, ...extra }) as unknown as ConnectionView;

describe('resume words', () => {
  const all = [conn('5f3a9c:1'), conn('5f3a9c:2'), conn('har:0')];
  const numbers = connectionNumbers(all);

  it('names a connection by its place in the list, or by its id when it is not listed', () => {
    expect(connectionName(numbers, '5f3a9c:2')).toBe('#2');
    expect(connectionName(numbers, 'gone:7')).toBe('gone:7');
  });

  it('names the connections a diagnostic message names as the list does, and nothing else', () => {
    expect(withConnectionNames('resumes the stream of connection 5f3a9c:1 from id "e3" (its frame 3, after 4 events)', numbers))
      .toBe('resumes the stream of connection #1 from id "e3" (its frame 3, after 4 events)');
    expect(withConnectionNames('The page\'s stream goes on: connection har:0 resumed it.', numbers)).toBe('The page\'s stream goes on: connection #3 resumed it.');
    expect(withConnectionNames('the id came with a frame of connection 5f3a9c:2.', numbers)).toBe('the id came with a frame of connection #2.');
    expect(withConnectionNames('connection gone:7 and connection failed', numbers)).toBe('connection gone:7 and connection failed');
  });

  it('says what a connection resumes and who resumed it', () => {
    const second = conn('5f3a9c:2', { resumes: { eventId: '42', conn: '5f3a9c:1', frame: 3, events: 4, continuing: ['r1'] } });
    expect(resumeText(second, numbers)).toBe('resumes #1 from id "42"');
    const first = conn('5f3a9c:1', { resumedBy: [{ conn: '5f3a9c:2', eventId: '42', events: 4, continuing: ['r1'] }, { conn: 'har:0', eventId: '50', events: 9, continuing: [] }] });
    expect(resumeText(first, numbers)).toBe('resumed by #2, #3');
    expect(resumeText(conn('x', { resumes: { eventId: 'a-very-long-cursor-0123456789abcdef' } }), numbers)).toBe('resumes id "a-very-long-cursor-0123…", not captured');
    expect(continuedBy(first)).toEqual(new Map([['r1', first.resumedBy![0]]]));
    // An id the request sent in its URL's query, not a Last-Event-ID header: said so.
    const viaQuery = conn('5f3a9c:2', { resumes: { eventId: '42', query: 'lastEventId', conn: '5f3a9c:1', frame: 3, events: 4, continuing: ['r1'] } });
    expect(resumeText(viaQuery, numbers)).toBe('resumes #1 from id "42" in the query');
    expect(resumeText(conn('x', { resumes: { eventId: '42', query: 'lastEventID' } }), numbers)).toBe('resumes id "42" in the query, not captured');
  });
});
