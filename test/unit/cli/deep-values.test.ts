// `replay` writes the reconstructed messages out; a legacy (camelCase) AgentScope stream keeps its free-form values
// at any depth (agentscope-typescript reads them with JSON.parse), and JSON.stringify of a message holding one nested
// 100,000 deep overflowed the stack: exit 3, "internal error". Written whole now (src/core/json-text.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../temp-dir.ts';
import { cli } from './run-cli-process.ts';

const dir = useTempDir('rs-deep-');
const DEPTH = 100_000;
const deep = `${'{"a":'.repeat(DEPTH)}"leaf"${'}'.repeat(DEPTH)}`;

function deepStream(): string {
  const f = path.join(dir(), 'deep.sse');
  const events = ['{"type":"RUN_STARTED","replyId":"r","sessionId":"s","name":"n"}',
    '{"type":"TOOL_RESULT_START","replyId":"r","toolCallId":"t","toolCallName":"x"}',
    `{"type":"TOOL_RESULT_END","replyId":"r","toolCallId":"t","state":"success","metadata":${deep}}`,
    '{"type":"RUN_FINISHED","replyId":"r"}'];
  writeFileSync(f, events.map((e) => `data: ${e}\n\n`).join(''));
  return f;
}

/** The tool result's metadata as written: without white space (laid out down to 1000 levels, compact below). */
const metadataOf = (text: string) => {
  const squeezed = text.replace(/\s+/g, '');
  const at = squeezed.indexOf('"metadata":{"a":');
  return squeezed.slice(at + '"metadata":'.length, at + '"metadata":'.length + deep.length);
};

describe('replay of a message holding a value nested 100,000 deep', () => {
  it('writes it whole (exit 0), the rest laid out as JSON.stringify(…, null, 2) lays it out', async () => {
    const out = await cli('replay', deepStream());
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const replay = JSON.parse(out.stdout) as { replies: { id: string; final: { content: { metadata: unknown }[] } }[] }[];
    expect(replay[0].replies.map((r) => r.id)).toEqual(['r']);
    expect(metadataOf(out.stdout)).toBe(deep);
    expect(out.stdout.startsWith('[\n  {\n    "connection": ')).toBe(true);
  });

  it('--steps: every step\'s line, the deep value in each step after it arrived', async () => {
    const out = await cli('replay', '--steps', deepStream());
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { step: number }).step)).toEqual([0, 1, 2, 3]);
    expect(lines.map((l) => l.includes(deep))).toEqual([false, false, true, true]);
  });
});
