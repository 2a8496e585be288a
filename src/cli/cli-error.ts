// The one error the CLI shows as a single line on stderr with its own exit code (2: bad input or usage).
import { printable } from './printable.ts';

export class CliError extends Error {
  /**
   * `line`: the input file's line at fault, when one is (for a --github annotation). The message is made printable
   * here, once: it often quotes the input (a reply id, a HAR entry's URL) and goes to stderr and into an annotation.
   */
  constructor(message: string, readonly exitCode = 2, readonly line?: number) {
    super(printable(message));
  }
}
