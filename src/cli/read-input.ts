// Reading FILE (or "-", standard input) for the CLI. A regular file is read whole at once; anything else — a pipe, a
// terminal, a named pipe (FIFO), a device — is read as a stream that may never end (`curl -N … | replyscope validate -`
// of an agent that never closes its stream): `--timeout` bounds the wait, and what arrived by then is analysed.
import { constants, createReadStream, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { CliError } from './cli-error.ts';
import type { Timeout } from './duration.ts';
import { MAX_INPUT_BYTES, SPLIT_ADVICE, tooLarge } from './commands.ts';

/** What was read, and whether --timeout cut it (then the input had not ended). */
export interface InputRead {
  bytes: Uint8Array;
  cut?: InputCut;
}

export interface InputCut {
  timeout: Timeout;
  /** ms from the start of reading to the arrival of the last data; undefined when nothing arrived. */
  lastDataMs?: number;
}

export interface ReadOptions {
  timeout?: Timeout;
  /** Called when standard input is a terminal, before the read waits on it: nothing else shows that it waits. */
  onTerminal?: () => void;
  /** The most bytes read from a stream (tests lower it). */
  maxBytes?: number;
}

/** How messages name the input. */
function nameOf(path: string): string {
  return path === '-' ? 'standard input' : path;
}

/**
 * A path with a shell pattern in it that names no file: the shell passes a pattern that matched nothing as it is —
 * the README's `validate captures/*.replyscope.ndjson` with no such captures said only "no such file: captures/*…".
 */
function unmatchedPattern(path: string): string {
  return /[*?[]/.test(path) ? ' (a pattern that matched no file: the shell passes one as it is)' : '';
}

/** A read or stat failure as one line for the user. */
function readError(err: unknown, path: string): CliError {
  if (err instanceof CliError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const what = nameOf(path);
  // ERR_FS_FILE_TOO_LARGE: past what one Buffer holds (2 GiB); the size check says the smaller limit for the rest.
  return new CliError(code === 'ENOENT' ? `no such file: ${path}${unmatchedPattern(path)}` : code === 'EISDIR' ? `${what} is a directory, not a file`
    : code === 'ERR_FS_FILE_TOO_LARGE' ? `${what} is larger than one input can hold (512 MiB); split it`
    : code === 'EACCES' || code === 'EPERM' ? `cannot read ${what}: permission denied (${code})` : `cannot read ${what}: ${code ?? String(err)}`);
}

export async function readInput(path: string, options: ReadOptions = {}): Promise<InputRead> {
  const stdin = path === '-';
  let stats: Stats;
  try {
    stats = stdin ? fstatSync(0) : statSync(path);
  } catch (err) {
    throw readError(err, path);
  }
  if (stats.isDirectory()) throw readError(Object.assign(new Error(), { code: 'EISDIR' }), path);
  if (stats.isFile()) {
    // Refused by its size before it is read: a 600 MiB file took 4 s and 700 MB of memory to be told it is too large.
    // A regular file has all its data: it is read at once, and --timeout has nothing to wait for.
    if (stats.size > MAX_INPUT_BYTES) throw tooLarge(stdin ? 'stdin' : path, stats.size);
    try {
      return { bytes: readFileSync(stdin ? 0 : path) };
    } catch (err) {
      throw readError(err, path);
    }
  }
  if (stdin && process.stdin.isTTY) options.onTerminal?.();
  return readStream(stdin ? process.stdin : stats.isFIFO() ? fifo(path) : createReadStream(path), path, options);
}

/**
 * A named pipe, read as standard input reads a pipe: polled, not read in Node's thread pool. There, the open() of a
 * pipe no writer has opened yet — or a read of one whose writer went quiet — blocks a thread the timeout cannot free,
 * and the process could not exit after its report (libuv joins those threads at exit). Opened non-blocking, the open
 * returns at once; Linux reports no end until a writer has come and gone.
 */
function fifo(path: string): Readable {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw readError(err, path);
  }
  return new Socket({ fd, readable: true, writable: false });
}

/**
 * A stream to its end, or to the timeout: then what arrived, marked as cut. Stops at `maxBytes` with the size error
 * (readFileSync of a pipe held up to 2 GiB before it was told the 512 MiB limit).
 */
function readStream(stream: Readable, path: string, options: ReadOptions): Promise<InputRead> {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const timeout = options.timeout;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let lastDataMs: number | undefined;
    let settled = false;
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      then();
    };
    const timer = timeout === undefined ? undefined : setTimeout(() => settle(() => {
      stream.destroy(); // stop reading: what arrived is analysed
      resolve({ bytes: Buffer.concat(chunks, total), cut: { timeout, ...(lastDataMs !== undefined ? { lastDataMs } : {}) } });
    }), timeout.ms);
    stream.on('data', (b: Buffer) => {
      if (settled) return;
      total += b.length;
      if (total > maxBytes) {
        settle(() => {
          stream.destroy();
          const limit = maxBytes >= 2 ** 20 ? `${Math.round(maxBytes / 2 ** 20)} MiB` : `${maxBytes} bytes`;
          reject(new CliError(`${path === '-' ? 'stdin' : path} holds more than ${limit}, the most one input can hold (the longest string ` +
            `JavaScript makes); ${SPLIT_ADVICE}`));
        });
        return;
      }
      chunks.push(b);
      lastDataMs = performance.now() - started;
    });
    stream.once('end', () => settle(() => resolve({ bytes: Buffer.concat(chunks, total) })));
    stream.once('error', (err) => settle(() => reject(readError(err, path))));
  });
}
