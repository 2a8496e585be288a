import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';

// Input that is no text at all — a compressed artifact, random bytes — is said to be binary with its first bytes:
// the message quoted its decoding, a run of U+FFFD and escapes that said nothing about what the file was.
const validate = (bytes: number[]) => runCli(['validate', 'capture.bin'], () => Uint8Array.from(bytes));

describe('binary input', () => {
  it('zstd and xz artifacts are named, as gzip and zip are', async () => {
    await expect(validate([0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x01, 0x00])).rejects.toThrow('capture.bin: the file is zstd-compressed: decompress it first (unzstd)');
    await expect(validate([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04])).rejects.toThrow('capture.bin: the file is xz-compressed: decompress it first (unxz)');
  });

  it('other bytes that are not text are told as binary, with their first bytes', async () => {
    const bzip2 = [...new TextEncoder().encode('BZh91AY&SY'), 0x5f, 0xa2, 0xe3, 0xff, 0x00, 0x01];
    await expect(validate(bzip2)).rejects.toThrow('capture.bin: expected a capture log, a HAR file, JSON events, NDJSON or SSE text; ' +
      'found binary data, not text (its first bytes: 42 5a 68 39 31 41 59 26 …; compressed or archived? unpack it first)');
    await expect(validate([0x00, 0x01, 0x20, 0x6e])).rejects.toThrow('found binary data, not text (its first bytes: 00 01 20 6e;');
    // Text with a stray NUL byte is told as such, where it is — not "compressed or archived?" over its text's bytes.
    await expect(validate([...new TextEncoder().encode('this is \ntext'), 0x00, 0x0a])).rejects.toThrow('found text with a NUL byte (\\0) at byte 13 (line 2) — no reader takes it there; remove it');
    // Text that is no format is still quoted as text.
    await expect(validate([...new TextEncoder().encode('hello — world')])).rejects.toThrow('found text starting "hello — world"');
  });

  it('a stream body with bytes that are not UTF-8 is still read, and diagnosed', async () => {
    const body = [...new TextEncoder().encode('data: {"type":"start"}\n\ndata: {"type":"x'), 0xff, ...new TextEncoder().encode('"}\n\n')];
    const out = await validate(body);
    expect(out.stdout).toContain('stream.invalid-utf8');
  });
});
