// The one error the CLI shows as a single line on stderr with its own exit code (2: bad input or usage).
export class CliError extends Error {
  /** `line`: the input file's line at fault, when one is (for a --github annotation). */
  constructor(message: string, readonly exitCode = 2, readonly line?: number) {
    super(message);
  }
}
