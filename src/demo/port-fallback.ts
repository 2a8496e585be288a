// One rule for the three local servers (`npm run demo`, `npm run viewer`, `npm start`): when the default port is taken
// — another demo or viewer still running — take any free one and say so; a port the user asked for (`--port N`,
// `--port=N`, `PORT=N`) fails as asked instead of moving silently. Each script had its own copy of this, and they
// drifted: `npm start` moved even an asked-for port, and `--port=N` did not count as asking.

/** The command line or the environment names a port. */
export function portWasAsked(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PORT !== undefined || argv.some((a) => a === '--port' || a.startsWith('--port='));
}

/**
 * `listen(port)`; when that port is busy and was not asked for, `listen(0)` (any free port) after a line on `log`.
 * Any other failure, or a busy asked-for port, is thrown as it came.
 */
export async function listenOrFallback<T>(
  port: number,
  asked: boolean,
  listen: (port: number) => Promise<T>,
  log: (line: string) => void = console.log,
): Promise<T> {
  try {
    return await listen(port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw err;
    // Said as what to do: "listen EADDRINUSE: address already in use 127.0.0.1:8765" named neither the cause (another
    // demo or viewer still running) nor the way out.
    if (asked) throw Object.assign(new Error(`port ${port} is taken (another demo or viewer still running?) — it was asked for with --port or PORT, so it is not moved: name another, or leave it out to take a free one`), { code: 'EADDRINUSE', cause: err });
    log(`Port ${port} is busy; using a free one.`);
    return listen(0);
  }
}
