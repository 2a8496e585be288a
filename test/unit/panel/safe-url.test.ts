// Captured strings are untrusted: only http(s) URLs and data: URLs we build from strict base64 may become sources.
import { describe, expect, it } from 'vitest';
import { mediaKind, safeDataUrl, safeRemoteUrl } from '../../../panel/lib/safe-url.ts';

describe('safeRemoteUrl', () => {
  it('accepts http and https, normalised', () => {
    expect(safeRemoteUrl('https://Example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeRemoteUrl(' http://127.0.0.1:8000/x ')).toBe('http://127.0.0.1:8000/x');
  });
  it.each(['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', 'blob:https://a/b', 'file:///etc/passwd', '/relative.png', 'vbscript:x', '', 42, null])(
    'rejects %s',
    (u) => expect(safeRemoteUrl(u)).toBeUndefined(),
  );
});

describe('safeDataUrl', () => {
  it('builds a data URL from a media type and strict base64 (whitespace dropped)', () => {
    expect(safeDataUrl('image/PNG', 'iVBO\nRw0K')).toBe('data:image/png;base64,iVBORw0K');
  });
  it.each([
    ['image/png', 'not base64!'],
    ['image/png', 'abc'],
    ['image/png', ''],
    ['text/html;charset=utf-8', 'PHNjcmlwdD4='],
    ['image/svg+xml,<svg onload=alert(1)>', 'AAAA'],
    [undefined, 'AAAA'],
  ])('rejects (%s, %s)', (t, d) => expect(safeDataUrl(t, d)).toBeUndefined());
  it('keeps svg as a data URL (rendered only through <img>)', () => {
    expect(safeDataUrl('image/svg+xml', 'PHN2Zy8+')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
  });
  it('classifies media kinds', () => {
    expect([mediaKind('image/webp'), mediaKind('audio/wav'), mediaKind('video/mp4'), mediaKind('application/pdf'), mediaKind(3)]).toEqual([
      'image', 'audio', 'video', 'other', 'other',
    ]);
  });
});
