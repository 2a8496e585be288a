// The one error the CLI shows as a single line on stderr with its own exit code (2: bad input or usage).
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}
