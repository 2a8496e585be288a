// A tiny, real PNG encoder (8-bit RGBA, no interlace) so the image scenarios stream genuine image bytes that the
// browser can decode — no binary fixtures in the repo.

import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes `pixel(x, y) → [r, g, b, a]` over a width×height canvas as PNG bytes. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`encodePng: bad size ${width}×${height}`);
  }
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter type "None" for every scanline
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * stride + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

/** A small bar chart: what a "generate_chart" tool or an image-capable model might return. */
export function barChartPng(values: number[], size = 64): Buffer {
  const max = Math.max(...values, 1);
  const barWidth = Math.floor(size / values.length);
  return encodePng(size, size, (x, y) => {
    const i = Math.floor(x / barWidth);
    const inBar = i < values.length && x % barWidth >= 2 && size - y <= Math.round((values[i] / max) * (size - 4));
    if (inBar) return [40 + i * 40, 110, 220 - i * 30, 255];
    return y === size - 1 || x === 0 ? [60, 60, 60, 255] : [250, 250, 252, 255];
  });
}

/** A radial "sunset" picture for the streamed DATA_BLOCK scenario. */
export function sunsetPng(size = 48): Buffer {
  return encodePng(size, size, (x, y) => {
    const dx = x - size / 2;
    const dy = y - size * 0.7;
    if (dx * dx + dy * dy < (size / 5) ** 2) return [255, 200, 40, 255];
    if (y > size * 0.7) return [20, 60 + y, 120, 255];
    return [255, Math.round(90 + (y / size) * 120), Math.round(60 + (y / size) * 60), 255];
  });
}
