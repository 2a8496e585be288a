import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

// `replyscope validate -` typed without a pipe: standard input is the terminal, and the CLI waited on it in silence.
// Tested on a real pseudo-terminal (python3's pty module): the CLI's standard input is the pty's slave end, its output
// and error are pipes, and the "user" types on the master end once the hint is shown.
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const hasPython = spawnSync('python3', ['-c', 'import pty, termios'], { stdio: 'ignore' }).status === 0;

/**
 * Runs the command with a pty as its stdin; waits (up to 10 s) for a first line on its stderr, then types `typed` and
 * Ctrl-D (the terminal's end of input), and prints what happened as JSON. Echo is off: nobody reads the master end.
 */
const DRIVER = `
import json, os, pty, select, subprocess, sys, termios, time
master, slave = pty.openpty()
attrs = termios.tcgetattr(slave)
attrs[3] &= ~termios.ECHO
termios.tcsetattr(slave, termios.TCSANOW, attrs)
p = subprocess.Popen(sys.argv[2:], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(slave)
before = b''
deadline = time.monotonic() + 10
while b'\\n' not in before:
    left = deadline - time.monotonic()
    if left <= 0 or not select.select([p.stderr], [], [], left)[0]:
        break
    chunk = os.read(p.stderr.fileno(), 4096)
    if not chunk:
        break
    before += chunk
for line in sys.argv[1].encode().splitlines(keepends=True):
    os.write(master, line)
os.write(master, b'\\x04')
out, after = p.communicate(timeout=30)
print(json.dumps({'code': p.returncode, 'beforeInput': before.decode(), 'stderr': (before + after).decode(), 'stdout': out.decode()}))
`;

function onTerminal(typed: string, ...args: string[]): Promise<{ code: number; beforeInput: string; stderr: string; stdout: string }> {
  const child = spawn('python3', ['-c', DRIVER, typed, process.execPath, BIN, ...args]);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => child.on('close', () => {
    try {
      resolve(JSON.parse(out));
    } catch {
      reject(new Error(`the pty driver failed: ${out}`));
    }
  }));
}

describe.skipIf(!hasPython)('validate - on a terminal', () => {
  it('says on stderr, before any input, that it reads the terminal and how to end it; then reads what is typed', async () => {
    const ev = (o: object) => `data: ${JSON.stringify(o)}\n\n`;
    const got = await onTerminal(ev({ type: 'start' }) + ev({ type: 'done', reason: 'stop' }), 'validate', '-');
    const hint = 'replyscope: reading the input from the terminal: paste it, then press Ctrl-D on a line of its own (or pipe it in: curl -sN URL | replyscope validate -)\n';
    expect(got.beforeInput).toBe(hint);
    expect(got.stderr).toBe(hint); // one line, once
    expect(got.stdout.split('\n')[0]).toBe('file stdin — pi-proxy, 2 events, 1 reply');
    expect(got.code).toBe(0);
  });
});
