import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../../src/cli/commands.ts';
import { tempDir } from '../temp-dir.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');

describe('an input past the size limit', () => {
  it('is refused by its size, before it is read (it was read whole first: 600 MiB in memory to be told so)', async () => {
    const dir = tempDir('rs-size-');
    const big = path.join(dir, 'big.replyscope.ndjson');
    writeFileSync(big, '');
    truncateSync(big, 600 * 2 ** 20); // sparse: no disk used, but a read yields 600 MiB of zeros
    // The process's peak memory, told on its way out (it reads the whole input when it reads it).
    const hook = path.join(dir, 'rss.mjs');
    writeFileSync(hook, "process.on('exit', () => process.stderr.write(`maxRSS ${process.resourceUsage().maxRSS}\\n`));\n");
    const err = await run(process.execPath, ['--import', hook, BIN, 'validate', big]).then(() => null, (e) => e);
    expect(err?.code).toBe(2);
    expect(err.stderr).toContain(`replyscope: ${big} is 600 MiB: more than one input can hold (512 MiB,`);
    const rssKiB = Number(/maxRSS (\d+)/.exec(err.stderr)?.[1]);
    expect(rssKiB).toBeGreaterThan(0);
    expect(rssKiB).toBeLessThan(400 * 1024); // ~100 MiB refused by its size; ~700 MiB when read first
  });

  it('the split it advises works: a capture log split by connection, each part with the header, reads whole', async () => {
    // Split as the refusal says, the example capture's parts together hold every connection and event of it.
    const file = path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    const [header, ...records] = lines;
    const connOf = (l: string): string => { const r = JSON.parse(l) as { id?: string; conn?: string }; return r.conn ?? r.id ?? ''; };
    const conns = [...new Set(records.map(connOf))].filter((id) => id !== ''); // '': the capture's own notices
    expect(conns.length).toBeGreaterThan(1);
    const half = Math.ceil(conns.length / 2);
    const parts = [conns.slice(0, half), conns.slice(half)].map((ids) => [header, ...records.filter((l) => ids.includes(connOf(l)))].join('\n') + '\n');
    type Replayed = { connection: string; replies: { id: string; events: number }[] }[];
    const replay = async (text: string) => JSON.parse((await runCli(['replay', 'x.replyscope.ndjson'], () => new TextEncoder().encode(text))).stdout) as Replayed;
    const whole = await replay(lines.join('\n') + '\n');
    const split = (await Promise.all(parts.map(replay))).flat();
    expect(split.map((c) => c.connection)).toEqual(conns);
    expect(split).toEqual(whole);
    // Cut at any line after the header instead, the second part is refused (what the advice said before).
    const cut = [header, ...records.slice(Math.floor(records.length / 2))].join('\n') + '\n';
    await expect(runCli(['validate', 'x.replyscope.ndjson'], () => new TextEncoder().encode(cut))).rejects.toThrow(/which no earlier line declares/);
  });
});
