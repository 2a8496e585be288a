// Lifecycle and validation diagnostics: one shape for every protocol, so the panel and the CLI render them alike.

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Stable code, e.g. `as.delta-before-start`, `pi.no-terminal`, `sse.client-drops-frame`. */
  code: string;
  severity: Severity;
  /** Index of the event (within the stream/reply it was computed for) the diagnostic is about. */
  index: number;
  message: string;
  /** Other event indices involved (e.g. the START a duplicate START repeats). */
  related?: number[];
  /**
   * For a diagnostic about a frame of the body (how the client reads it): that frame's index. `index` is then the
   * first event read from it or after it — a frame the client drops has no event of its own.
   */
  frame?: number;
  /**
   * About the connection as a whole (its request or answer, a note of its import), not one of its events: `index` is
   * then 0, and names no event. Told as the connection's (the CLI's "the connection"), not at its first event.
   */
  ofConnection?: true;
}

/** Documentation of one code, read by both the panel (Diagnostics view) and the CLI (`validate`). */
export interface DiagnosticDoc {
  code: string;
  /** The severity it is told with (the least, when `alsoWarning`). */
  severity: Severity;
  /** Told as a warning too, depending on what it says (a capture's note, an eviction that lost data). */
  alsoWarning?: boolean;
  title: string;
  /** What the rule means and why it matters to a frontend. */
  explanation: string;
  /** Where docs and reference code disagree: what the reference implementation actually does. */
  reference?: string;
}
