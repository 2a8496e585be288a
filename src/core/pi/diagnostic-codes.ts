// The diagnostic codes of the pi checker (documented in diagnostic-docs.ts).
export const PI_CODES = {
  httpError: 'pi.http-error',
  missingStart: 'pi.missing-start',
  unknownEventType: 'pi.unknown-event-type',
  malformedJson: 'pi.malformed-json',
  invalidEvent: 'pi.invalid-event',
  missingContentIndex: 'pi.missing-content-index',
  deltaOnMissingIndex: 'pi.delta-on-missing-index',
  contentKindMismatch: 'pi.content-kind-mismatch',
  toolcallEndIgnored: 'pi.toolcall-end-ignored',
  toolcallArgsInvalid: 'pi.toolcall-args-invalid',
  toolcallArgsRepaired: 'pi.toolcall-args-repaired',
  toolcallArgsUnsafeInteger: 'pi.toolcall-args-unsafe-integer',
  blockRestarted: 'pi.block-restarted',
  frameAfterTerminal: 'pi.frame-after-terminal',
  ignoredAfterFailure: 'pi.ignored-after-failure',
  clientException: 'pi.client-exception',
  noTerminal: 'pi.no-terminal',
  streamAborted: 'pi.stream-aborted',
  networkError: 'pi.network-error',
  unterminatedFinalLine: 'pi.unterminated-final-line',
  dataWithoutSpace: 'pi.data-without-space',
  partialMismatch: 'pi.partial-mismatch',
  streamError: 'pi.stream-error',
  agentSequence: 'pi.agent-sequence',
} as const;

export type PiDiagnosticCode = (typeof PI_CODES)[keyof typeof PI_CODES];
