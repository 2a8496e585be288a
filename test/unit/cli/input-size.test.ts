import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
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
});
