// The demo's wire output checked against the REAL AgentScope Python code at the conformance commit (pydantic event
// classes and Msg.append_event, run by reference_check.py): every frame must be byte-identical to what the service
// would write for that event, and the reference's final message must equal Replyscope's core reconstruction.
// Needs python3 with pydantic 2 and the mirrored repository; skipped (with the reason) when they are absent.

import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from '../../../src/demo/scenarios/index.ts';
import { playScenario, reconstruct, type Answer } from './support.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../../..');
const MIRROR = path.resolve(REPO_ROOT, '../.mirror/agentscope-ai+agentscope/repo');
const COMMIT = 'da00849f2c3db60b16edaf2371ae1d863f341ae2';

function prepareReference(): { src: string } | { skip: string } {
  const py = spawnSync('python3', ['-c', 'import pydantic; assert pydantic.VERSION.startswith("2")'], { encoding: 'utf8' });
  if (py.status !== 0) return { skip: 'python3 with pydantic 2 is not available' };
  if (!existsSync(MIRROR)) return { skip: `AgentScope mirror not found at ${MIRROR}` };
  const dir = path.join(tmpdir(), `replyscope-agentscope-${COMMIT.slice(0, 12)}`);
  if (!existsSync(path.join(dir, 'src/agentscope/event/_event.py'))) {
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync('sh', ['-c', `git -C "${MIRROR}" archive ${COMMIT} src/agentscope | tar x -C "${dir}"`], { encoding: 'utf8' });
    if (archive.status !== 0) return { skip: `cannot extract the reference: ${archive.stderr}` };
  }
  return { src: path.join(dir, 'src') };
}

interface RefRun { reserialised: (string | { invalid: string })[]; statuses: string[]; replies: unknown[] }

/** Drops what legitimately differs between two reconstructions: clocks (created_at) and ids the reconstructor generates. */
function normalise(value: unknown, inToolOutput = false): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, inToolOutput));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const obj = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'created_at') continue;
    if (k === 'id' && inToolOutput) continue; // TextBlocks made by TOOL_RESULT_TEXT_DELTA get fresh ids
    if (k === 'finished_at' && obj.type === 'hint') continue; // a hint block's own creation time
    out[k] = normalise(v, inToolOutput || (obj.type === 'tool_result' && k === 'output'));
  }
  return out;
}

const reference = prepareReference();
const runs: { name: string; answer: Answer }[] = [
  ...SCENARIOS.map((s) => ({ name: s.name, answer: 'allow' as Answer })),
  { name: 'confirm', answer: 'deny' },
];

describe.skipIf('skip' in reference)('demo scenarios against the Python reference', () => {
  it('frames are what the service writes, and the reference rebuilds the same messages as the core', async () => {
    const frames: Record<string, string[]> = {};
    for (const r of runs) frames[`${r.name}/${r.answer}`] = await playScenario(r.name, r.answer);
    const py = spawnSync('python3', [path.join(HERE, 'reference_check.py'), (reference as { src: string }).src], {
      input: JSON.stringify({ runs: frames }),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(py.stderr.split('\n').filter((l) => /Error|Traceback/.test(l))).toEqual([]);
    expect(py.status).toBe(0);
    const result = JSON.parse(py.stdout) as Record<string, RefRun>;

    for (const [key, texts] of Object.entries(frames)) {
      const ref = result[key];
      // Byte-identical: field set, key order, defaults, nulls and json.dumps spacing all match the service.
      expect(ref.reserialised, key).toEqual(texts);
      const core = reconstruct(texts);
      expect(normalise(core.replies), key).toEqual(normalise(ref.replies));
      const coreRaised = core.statuses.map((s) => s === 'error');
      const refRaised = ref.statuses.map((s) => s.startsWith('raised'));
      expect(coreRaised, key).toEqual(refRaised);
    }
  });
});

if ('skip' in reference) console.warn(`reference check skipped: ${reference.skip}`);
