import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';

// A JSON file cut where a value is still open gets V8's "Unexpected end of JSON input", which names no position: the
// message said nothing of where, and --github annotated the file with no line.
const validate = (text: string, ...args: string[]) => runCli(['validate', 'events.json', ...args], () => new TextEncoder().encode(text));

describe('JSON cut short', () => {
  it('is told at the file\'s last line, as a file that ends before its JSON does', async () => {
    // V8 names the position past the last character here (that was "line 4, column 1", a blank line past the end).
    // (V8's wording differs across Node versions: only the position and what follows it are matched.)
    await expect(validate('[\n  {"type": "start"},\n  {"type": "text_start",\n')).rejects.toThrow(
      /^events\.json: not valid JSON: .* at position 48\b.*: the file ends at line 3 before its JSON does \(cut short\?\)$/);
    // V8 names no position when the cut falls between values; the place is the file's last line all the same.
    await expect(validate('[\n  {"type": "start"},\n')).rejects.toThrow(
      'events.json: not valid JSON: Unexpected end of JSON input: the file ends at line 2 before its JSON does (cut short?)');
    const annotated = await validate('[\n  {"type": "start"},\n', '--github');
    expect([annotated.exitCode, annotated.stdout]).toEqual([2,
      '::error file=events.json,line=2,title=replyscope input::events.json: not valid JSON: Unexpected end of JSON input: the file ends at line 2 before its JSON does (cut short?)']);
  });
});
