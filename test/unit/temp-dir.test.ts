import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { withTempDir } from '../temp-dir.ts';
import { tempDir, useTempDir } from './temp-dir.ts';

// The tests' temporary directories are gone once what made them is done (runs had left thousands in /tmp).
const run = promisify(execFile);
let madeByTest: string | undefined;
let madeForDescribe: (() => string) | undefined;
let describeDir: string | undefined;

describe('tempDir', () => {
  it('makes a directory for the running test', () => {
    madeByTest = tempDir('rs-temp-dir-test-');
    writeFileSync(path.join(madeByTest, 'x'), 'x');
    expect(existsSync(madeByTest)).toBe(true);
  });

  it('removed it, and what it held, once that test finished', () => {
    expect(madeByTest).toBeDefined();
    expect(existsSync(madeByTest!)).toBe(false);
  });

  // Outside a test (here, where the describe collects its tests) it throws, and has made nothing nobody would remove.
  let outside: unknown;
  try {
    tempDir('rs-temp-dir-outside-');
  } catch (err) {
    outside = err;
  }
  it('outside a test it throws, and makes nothing', () => {
    expect(String(outside)).toMatch(/inside a test/);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('rs-temp-dir-outside-'))).toEqual([]);
  });
});

describe('useTempDir', () => {
  describe('a describe with its directory', () => {
    madeForDescribe = useTempDir('rs-temp-dir-file-');
    it('is there for each of its tests', () => {
      describeDir = madeForDescribe!();
      expect(existsSync(describeDir)).toBe(true);
    });
    it('the same one', () => {
      expect(madeForDescribe!()).toBe(describeDir);
    });
  });

  it('is removed after them', () => {
    expect(describeDir).toBeDefined();
    expect(existsSync(describeDir!)).toBe(false);
    expect(() => madeForDescribe!()).toThrow(/used outside its tests/);
  });
});

describe('withTempDir', () => {
  it('removes the directory when the block throws', async () => {
    let dir = '';
    await expect(withTempDir('rs-temp-dir-with-', (d) => {
      dir = d;
      throw new Error('the block failed');
    })).rejects.toThrow('the block failed');
    expect(dir).not.toBe('');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('makeTempDir', () => {
  it('a directory nobody removed is removed when the process exits', async () => {
    const helper = path.resolve(import.meta.dirname, '../temp-dir.ts');
    const script = `const { makeTempDir } = await import(${JSON.stringify(helper)}); console.log(makeTempDir('rs-temp-dir-exit-'));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    const dir = stdout.trim();
    expect(dir).toMatch(/rs-temp-dir-exit-/);
    expect(existsSync(dir)).toBe(false);
  });
});
