// What an input's bytes are before they are read as UTF-8 text: UTF-16 (its byte order mark), a compressed or
// archived file (its magic bytes), or binary data — each told as what it is, with what to do. Apart from loadInput
// because the capture log read in slices (capture-log-stream.ts) asks the same of a file's head without reading it
// whole.

/** Text of a file in UTF-16 (its byte order mark says so; PowerShell's `>` writes it), else undefined. */
export function utf16Text(b: Uint8Array): string | undefined {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2));
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  return undefined;
}

/** What a binary container the user may hand over is (its magic bytes), for a message that says what to do. */
export function container(b: Uint8Array): string | undefined {
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip-compressed: decompress it first (gunzip)';
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'a zip archive: extract the file from it first';
  if (b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd) return 'zstd-compressed: decompress it first (unzstd)';
  if (b.length >= 6 && b[0] === 0xfd && String.fromCharCode(...b.subarray(1, 5)) === '7zXZ' && b[5] === 0) return 'xz-compressed: decompress it first (unxz)';
  // A zlib stream (RFC 1950): mitmproxy's HAR dump writes one when the file is named .zhar. Its header's check bits make
  // (CMF·256 + FLG) a multiple of 31; the levels' FLG bytes 0x01, 0x9c, 0xda are no text a file of ours starts with.
  if (b.length >= 2 && b[0] === 0x78 && (b[1] === 0x01 || b[1] === 0x9c || b[1] === 0xda)) {
    return 'zlib-compressed (mitmproxy writes a .zhar HAR so): decompress it first (python3 -c "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))" < FILE > FILE.har)';
  }
  return undefined;
}

/** True for bytes loadInput does not read as UTF-8 text: UTF-16 (its byte order mark), or a compressed or archived file. */
export function isOtherEncodingOrContainer(b: Uint8Array): boolean {
  const utf16 = b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
  return utf16 || container(b) !== undefined;
}

/**
 * Input that is no text, told as such: its decoded preview was a run of U+FFFD and escapes ("(\uFFFD/\uFFFD\u0002…"
 * for a .zst) that said nothing. Undefined for text. Asked only of input no reader recognised — a stream body that
 * holds bytes which are not UTF-8 is read, and diagnosed (stream.invalid-utf8).
 */
export function binaryHead(b: Uint8Array): string | undefined {
  const head = b.subarray(0, 64);
  let text = true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true }); // stream: a character cut at byte 64 is no error
  } catch {
    text = false;
  }
  if (text && !head.includes(0)) return undefined;
  // Text but for NUL bytes (a file written with a stray \0, a C string's terminator): say where, not "compressed?".
  const nul = head.indexOf(0);
  const printable = (x: number) => x >= 0x20 || x === 0x09 || x === 0x0a || x === 0x0d;
  if (text && [...head].filter((x) => x === 0).length <= 2 && [...head].every((x) => x === 0 || printable(x))) {
    const line = [...b.subarray(0, nul)].filter((x) => x === 0x0a).length + 1;
    return `text with a NUL byte (\\0) at byte ${nul} (line ${line}) — no reader takes it there; remove it`;
  }
  const bytes = [...head.subarray(0, 8)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  return `binary data, not text (its first bytes: ${bytes}${b.length > 8 ? ' …' : ''}; compressed or archived? unpack it first)`;
}
