// What the CLI prints quotes its input — event types, reply and block ids, URLs, a capture's notes. A control character
// there acts on whoever reads the output: a newline starts a line that GitHub Actions runs as a workflow command (a
// stream could add fake annotations, `::add-mask::` words, or `::stop-commands::` that hides every annotation after
// it), and an ESC sequence recolours or retitles a terminal. Every line the CLI writes as text goes through this.

// C0 controls but tab, DEL, and the C1 controls (U+0080–U+009F; a terminal may read U+009B as an escape's start).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/** `s` as one line of inert text: each control character written as its escape (`\n`, `\r`, `\u001b`). */
export function printable(s: string): string {
  return s.replace(CONTROL, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
