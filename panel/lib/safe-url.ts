// Captured strings are untrusted. These helpers decide which of them may become a link, an image source or a media
// source. Only http(s) URLs (loaded on explicit click) and data: URLs that WE build from validated base64 pass.

/** An http(s) URL string, or undefined for anything else (javascript:, data:, blob:, file:, relative, garbage). */
export function safeRemoteUrl(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type MediaKind = 'image' | 'audio' | 'video' | 'other';

export function mediaKind(mediaType: unknown): MediaKind {
  if (typeof mediaType !== 'string') return 'other';
  const t = mediaType.toLowerCase();
  if (t.startsWith('image/')) return 'image';
  if (t.startsWith('audio/')) return 'audio';
  if (t.startsWith('video/')) return 'video';
  return 'other';
}

/**
 * A data: URL for base64 content, or undefined when the media type is not a plain `type/subtype` or the data is not
 * strict base64 (whitespace is tolerated and dropped). The caller only uses it as <img>/<audio>/<video> src, so an
 * SVG is rendered by the image decoder, never as a document.
 */
export function safeDataUrl(mediaType: unknown, base64: unknown): string | undefined {
  if (typeof mediaType !== 'string' || typeof base64 !== 'string') return undefined;
  const type = mediaType.trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) return undefined;
  const data = base64.replace(/\s+/g, '');
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  return `data:${type};base64,${data}`;
}
