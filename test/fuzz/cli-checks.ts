// The same inputs through the CLI commands, in-process (`runCli` with an in-memory file reader): the raw body as
// a file, the capture as a capture log (and a corrupted copy of it), and — for valid streams — the event array.
// A command may refuse bad input only with a CliError (one clear line, exit 2); anything else thrown is a crash.
// `validate --json` must print JSON whose error count agrees with the exit code — input it refuses is one entry,
// code input.unreadable, exit 2; a capture log must round-trip: the CLI sees the same diagnostics as direct analysis
// of the records.
import { CliError, runCli, type CliResult } from '../../src/cli/commands.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { writeCaptureLog } from '../../src/core/capture/capture-log.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { captureOf } from './pipeline-checks.ts';

export interface CliInput {
  name: string;
  bytes: Uint8Array;
  /** Direct analysis of the same records, when the file is a lossless copy of them. */
  expect?: ConnectionView[];
}

const enc = new TextEncoder();

export function cliInputs(records: CaptureRecord[], body: Uint8Array, views: ConnectionView[], corruptAt: number, events?: unknown[]): CliInput[] {
  const log = enc.encode(writeCaptureLog(captureOf(records)));
  const corrupt = log.slice();
  if (corrupt.length > 0) corrupt[corruptAt % corrupt.length] ^= 0x5a;
  const inputs: CliInput[] = [
    { name: 'body.sse', bytes: body },
    { name: 'capture.replyscope.ndjson', bytes: log, expect: views },
    { name: 'corrupt.replyscope.ndjson', bytes: corrupt },
  ];
  if (events) inputs.push({ name: 'events.json', bytes: enc.encode(JSON.stringify(events)) });
  return inputs;
}

type Outcome = ({ ok: true } & CliResult) | { ok: false; refused: string };

async function run(args: string[], input: CliInput): Promise<Outcome> {
  try {
    const r = await runCli(args, (p) => {
      if (p !== input.name) throw new CliError(`no such file: ${p}`);
      return input.bytes;
    });
    return { ok: true, ...r };
  } catch (err) {
    if (err instanceof CliError) {
      if (err.message.includes('\n') && err.exitCode !== 0) throw new Error(`CliError message spans lines: ${err.message.slice(0, 200)}`);
      return { ok: false, refused: err.message };
    }
    throw err;
  }
}

export async function checkCli(inputs: CliInput[], opts: { steps: boolean }): Promise<string[]> {
  const problems: string[] = [];
  for (const input of inputs) {
    const where = `replyscope … ${input.name}`;
    try {
      const json = await run(['validate', '--json', input.name], input);
      // Input it refuses: with --json, an entry of its own (stdout was empty) — the refusal, as the text report's.
      let v = json;
      if (json.ok && json.exitCode === 2) {
        const all = JSON.parse(json.stdout) as { code: string; message: string }[];
        if (all.length !== 1 || all[0].code !== 'input.unreadable' || all[0].message !== json.stderr) problems.push(`${where}: validate --json refused the input as ${json.stdout.slice(0, 200)}`);
        v = { ok: false, refused: all[0]?.message ?? '' };
      }
      if (v.ok) {
        const all = JSON.parse(v.stdout) as { severity: string; code: string }[];
        const errors = all.filter((d) => d.severity === 'error').length;
        if ((errors > 0) !== (v.exitCode === 1)) problems.push(`${where}: validate exit ${v.exitCode} with ${errors} error diagnostics`);
        if (input.expect) {
          const direct = input.expect.flatMap((c) => c.diagnostics.map((d) => `${d.code}@${d.index}`));
          // The connections' diagnostics: notes of no connection ("the input holds no events") are the file's.
          const viaLog = all.filter((d) => (d as { connection?: string | null }).connection !== null).map((d) => `${d.code}@${(d as { index?: number }).index}`);
          if (direct.join(',') !== viaLog.join(',')) problems.push(`${where}: capture-log round trip changed the diagnostics: ${direct.slice(0, 8).join(',')} → ${viaLog.slice(0, 8).join(',')}`);
        }
      } else if (input.expect) problems.push(`${where}: a capture log the core wrote was refused: ${v.refused}`);
      const text = await run(['validate', input.name], input);
      if (text.ok && v.ok && text.exitCode !== v.exitCode) problems.push(`${where}: validate and validate --json disagree on the exit code`);
      const r = await run(['replay', ...(opts.steps ? ['--steps'] : []), input.name], input);
      if (r.ok && r.lines) for (const line of r.lines) JSON.parse(line);
      else if (r.ok) JSON.parse(r.stdout);
    } catch (err) {
      const e = err as Error;
      problems.push(`CRASH in CLI (${where}): ${e?.name}: ${String(e?.message).slice(0, 300)} @ ${(e?.stack ?? '').split('\n').slice(1, 4).map((s) => s.trim()).join(' / ')}`);
    }
  }
  return problems;
}
