// Incremental lifecycle checker for one pi HTTP response. It runs the same client model as the reconstruction
// (proxy-reducer.ts) to know which blocks exist and when the client settles or stops, so every diagnostic says
// what the reference client will actually do. Pure: `(state, input) → {state, diagnostics}`.
import type { EndState } from '../capture/model.ts';
import { endedWithPage } from '../capture/notices.ts';
import { clipped, shownJsonClipped, shownJsonHead, shownString } from '../diagnostics/shown.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { PI_CODES as C } from './diagnostic-codes.ts';
import { describeRounded, roundedIntegers } from '../frames/json-integers.ts';
import type { PiLine } from './client-reading.ts';
import { PI_ABORT_MESSAGE, piHttpFailure, piNetworkErrorMessage } from './client-reading.ts';
import { arrayIndexOf, contentKey, readBlock } from './message-state.ts';
import { checkPiAgentEvent, checkPiAssistantEvent, initialPiMessageCheck, type PiMessageCheckState, type PiMessageMismatch } from './message-check.ts';
import { applyPiProxyEvent, failPiClient, initialPiState, type PiProxyState } from './proxy-reducer.ts';
import { parseStreamingJson, repairJsonStrings } from './streaming-json.ts';
import { detectPiForm, validatePiEvent, type PiEventForm } from './validate.ts';
import { PI_AGENT_EVENT_TYPES } from './schema.ts';
import { checkAgentSequence, initialAgentSequence, type AgentSequenceState } from './agent-sequence.ts';

/** How much of a value a stream sent a diagnostic message quotes. */
const SHOWN_MAX = 80;

export type PiLifecycleInput =
  /** The response head (and body text for non-2xx answers). */
  | { kind: 'response'; status: number; statusText?: string; bodyText?: string }
  /** A complete body line as the client split it (see client-reading.ts). */
  | { kind: 'line'; line: PiLine }
  /** A `data: ` payload that parsed as JSON; `index` = event index in the connection. */
  | { kind: 'event'; index: number; raw: unknown }
  /** A `data: ` payload that did not parse. */
  | { kind: 'malformed'; index: number; data: string; error: string }
  /**
   * The body ended; `pending` = text after the last "\n" (never processed by the client); `endState` = how the
   * connection stopped (capture model), `error` its error text. Without `endState` the body is taken as complete.
   */
  | { kind: 'end'; pending?: string; endState?: EndState; error?: string };

export interface PiLifecycleState {
  /** Event form (detected from the first recognisable event unless forced). */
  readonly form?: PiEventForm;
  readonly client: PiProxyState;
  /** Events seen (data payloads, parsed or not). */
  readonly events: number;
  readonly terminalIndex?: number;
  readonly reportedIgnored: boolean;
  /** Proxy form: an event carrying pi-ai's message (`partial`…) was told of (once per stream). */
  readonly reportedCarried?: boolean;
  readonly check: PiMessageCheckState;
  readonly agent: AgentSequenceState;
}

export interface PiLifecycleStep {
  state: PiLifecycleState;
  diagnostics: Diagnostic[];
}

export function initialPiLifecycle(requestBody?: unknown, form?: PiEventForm): PiLifecycleState {
  return {
    ...(form ? { form } : {}),
    client: initialPiState(requestBody),
    events: 0,
    reportedIgnored: false,
    check: initialPiMessageCheck,
    agent: initialAgentSequence,
  };
}

const d = (code: string, severity: Diagnostic['severity'], index: number, message: string, related?: number[]): Diagnostic =>
  related ? { code, severity, index, message, related } : { code, severity, index, message };

const KIND_OF: Record<string, string> = { text: 'text', thinking: 'thinking', toolcall: 'toolCall' };

/** What the client will make of a block event, said before it is applied. */
function blockDiagnostics(state: PiLifecycleState, ev: Record<string, unknown>, index: number): Diagnostic[] {
  const type = shownString(ev.type);
  const m = /^(text|thinking|toolcall)_(start|delta|end)$/.exec(type);
  if (!m) return [];
  const [, family, phase] = m;
  const out: Diagnostic[] = [];
  const rawIndex = ev.contentIndex;
  const usable = typeof rawIndex === 'number' && arrayIndexOf(String(rawIndex)) !== undefined;
  if (!usable) {
    const effect = phase === 'start' ? 'stores the block under' : 'targets';
    out.push(d(C.missingContentIndex, 'warning', index, `${type} has contentIndex ${shownJsonClipped(rawIndex, SHOWN_MAX) ?? 'undefined'}: it ${effect} content["${clipped(shownString(rawIndex), SHOWN_MAX)}"], invisible in the message`));
  }
  let key: string;
  try {
    key = contentKey(rawIndex);
  } catch {
    return out;
  }
  const block = readBlock(state.client.message.content, key);
  const want = KIND_OF[family];
  const where = `content[${usable ? rawIndex : JSON.stringify(key)}]`;
  if (phase === 'start') {
    if (block) out.push(d(C.blockRestarted, 'warning', index, `${type} replaces the ${block.type} block already at ${where}`));
    return out;
  }
  if (block?.type === want) {
    if (type === 'toolcall_end') out.push(...toolArgsDiagnostics(block.partialJson, index, where));
    return out;
  }
  if (type === 'toolcall_end') {
    out.push(d(C.toolcallEndIgnored, 'warning', index, `toolcall_end on ${where}, which ${block ? `is a ${block.type} block` : 'holds no block'}: silently ignored`));
  } else if (!block) {
    out.push(d(C.deltaOnMissingIndex, 'error', index, `${type} on ${where}, which was never started: the client fails and ignores the rest of the stream`));
  } else {
    out.push(d(C.contentKindMismatch, 'error', index, `${type} on ${where}, which is a ${block.type} block (expected ${want}): the client fails and ignores the rest of the stream`));
  }
  return out;
}

/** At toolcall_end: does the streamed argument text parse strictly, only after repair, or not at all? */
function toolArgsDiagnostics(partialJson: unknown, index: number, where: string): Diagnostic[] {
  if (typeof partialJson !== 'string' || partialJson.trim() === '') return [];
  const strict = tryParse(partialJson);
  if (strict.ok && isPlainObject(strict.value)) return unsafeIntegers(partialJson, index, where);
  const repairedText = strict.ok ? partialJson : repairJsonStrings(partialJson);
  const repaired = strict.ok ? strict : tryParse(repairedText);
  if (repaired.ok && isPlainObject(repaired.value)) {
    return [d(C.toolcallArgsRepaired, 'info', index, `the arguments of ${where} only parse after pi-ai's JSON repair`), ...unsafeIntegers(repairedText, index, where)];
  }
  const what = repaired.ok ? `are JSON but not an object (${shownJsonHead(repaired.value, 40) as string})` : 'are not valid JSON';
  const salvaged = shownJsonHead(parseStreamingJson(partialJson) || {}, 60) as string;
  return [d(C.toolcallArgsInvalid, 'warning', index, `the arguments of ${where} ${what}; the client keeps ${salvaged}`)];
}

/** The arguments' integers beyond 2^53, which pi-ai's JSON.parse (and so the tool) reads as another value. */
function unsafeIntegers(json: string, index: number, where: string): Diagnostic[] {
  const found = roundedIntegers(json);
  if (found.length === 0) return [];
  const shown = describeRounded(found);
  return [d(C.toolcallArgsUnsafeInteger, 'warning', index, `the arguments of ${where} hold the integer ${shown.literal}, beyond 2^53: ` +
    `pi-ai's JSON.parse — and so the tool — reads ${shown.read}${shown.more}`)];
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function validationDiagnostics(form: PiEventForm, raw: unknown, index: number): Diagnostic[] {
  const v = validatePiEvent(raw, form);
  if (v.ok) return [];
  // Type and index problems have their own, more precise codes.
  const issues = v.issues.filter((i) => i.path !== 'type' && i.path !== 'contentIndex' && i.path !== '(root)');
  if (!issues.length) return [];
  const text = issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join('; ');
  return [d(C.invalidEvent, 'warning', index, `event does not match the pi ${form} schema (${text}${issues.length > 3 ? '; …' : ''})`)];
}

/** An AssistantMessageEvent's message: `partial`, done's `message`, error's `error` (the proxy form has none). */
function carriesMessage(ev: Record<string, unknown>): boolean {
  const carried = ev.type === 'done' ? ev.message : ev.type === 'error' ? ev.error : ev.partial;
  return isPlainObject(carried);
}

function onClientEvent(state: PiLifecycleState, raw: unknown, index: number, form: PiEventForm): PiLifecycleStep {
  const out: Diagnostic[] = [];
  const ev = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : undefined;
  if (state.events === 0 && ev && ev.type !== 'start' && ev.type !== 'error') {
    out.push(d(C.missingStart, 'warning', index, `the stream begins with ${shownJsonClipped(ev.type, SHOWN_MAX)} instead of "start"`));
  }
  if (state.client.settled && state.terminalIndex !== undefined) {
    out.push(d(C.frameAfterTerminal, 'warning', index, 'frame after the terminal event: consumers never see it, but it still changes the message result() returned', [state.terminalIndex]));
  }
  if (ev) out.push(...validationDiagnostics(form, raw, index), ...blockDiagnostics(state, ev, index));
  const carries = form === 'proxy' && !state.reportedCarried && ev !== undefined && carriesMessage(ev);
  if (carries) {
    out.push(d(C.partialIgnored, 'warning', index, `the event carries pi-ai's message (${ev.type === 'done' ? 'message' : ev.type === 'error' ? 'error' : 'partial'}), which streamProxy ignores: its message is built from the deltas and the events' own fields alone`));
  }
  const step = applyPiProxyEvent(state.client, raw);
  if (step.warning !== undefined) out.push(d(C.unknownEventType, 'warning', index, `${clipped(step.warning, SHOWN_MAX + 40)}: the client skips this frame`));
  if (step.failure !== undefined && !out.some((x) => x.severity === 'error')) {
    out.push(d(C.clientException, 'error', index, `the client threw "${clipped(step.failure, SHOWN_MAX + 40)}" and stops reading`));
  }
  if (step.emitted === 'error' && step.delivered && step.failure === undefined && ev) {
    // The proxy form sends errorMessage on the event; pi-ai's error event carries it in its message (`error`).
    const errorMessage = form === 'assistant' ? (isPlainObject(ev.error) ? (ev.error as Record<string, unknown>).errorMessage : undefined) : ev.errorMessage;
    out.push(d(C.streamError, 'info', index, `server error event (${shownString(ev.reason)}): ${errorMessage === undefined ? 'no errorMessage' : shownString(errorMessage)}`));
  }
  let check = state.check;
  if (form === 'assistant') {
    const r = checkPiAssistantEvent(check, raw);
    check = r.state;
    out.push(...mismatchDiagnostics(r, index));
  }
  const terminal = step.delivered && (step.emitted === 'done' || step.emitted === 'error');
  return {
    state: { ...state, client: step.state, check, events: state.events + 1, ...(terminal ? { terminalIndex: index } : {}), ...(carries ? { reportedCarried: true } : {}) },
    diagnostics: out,
  };
}

/**
 * The checker's mismatches, told at this event. One about an earlier event (a carried text that a later delta
 * proved no state of the stream) names it: the checker counts the events it saw, which are this one and those
 * just before it.
 */
function mismatchDiagnostics(r: { state: PiMessageCheckState; mismatches: readonly PiMessageMismatch[] }, index: number): Diagnostic[] {
  const current = r.state.index - 1;
  return r.mismatches.map((mm) => {
    const at = index - (current - mm.index);
    const where = mm.index === current ? '' : ` (carried by event ${at})`;
    return d(C.partialMismatch, 'warning', index, `${mm.path}${where}: ${mm.message}`);
  });
}

/**
 * The agent form's failed model call: pi-agent-core forwards no error event (its loop ends the message on pi-ai's
 * `error` with a message_end), so the assistant message's stopReason "error"/"aborted" and errorMessage are what tell
 * it — as the other forms' error event does (pi.stream-error there).
 */
function agentMessageFailure(raw: unknown): string | undefined {
  if (!isPlainObject(raw) || raw.type !== 'message_end' || !isPlainObject(raw.message)) return undefined;
  const m = raw.message as Record<string, unknown>;
  if (m.role !== 'assistant' || (m.stopReason !== 'error' && m.stopReason !== 'aborted')) return undefined;
  return `the assistant message ended with stopReason "${shownString(m.stopReason)}": ${m.errorMessage === undefined ? 'no errorMessage' : shownString(m.errorMessage)}`;
}

function onAgentEvent(state: PiLifecycleState, raw: unknown, index: number): PiLifecycleStep {
  const out = validationDiagnostics('agent', raw, index);
  const type = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).type : undefined;
  if (!(PI_AGENT_EVENT_TYPES as readonly unknown[]).includes(type)) {
    out.push(d(C.unknownEventType, 'warning', index, `${shownJsonClipped(type, SHOWN_MAX) ?? 'an event without a type'} is not a pi-agent-core AgentEvent type: an agent loop's subscribers ignore it`));
  }
  const failed = agentMessageFailure(raw);
  if (failed) out.push(d(C.streamError, 'info', index, failed));
  const seq = checkAgentSequence(state.agent, raw, index);
  const r = checkPiAgentEvent(state.check, raw);
  out.push(...mismatchDiagnostics(r, index));
  return { state: { ...state, agent: seq.state, check: r.state, events: state.events + 1 }, diagnostics: [...out, ...seq.diagnostics] };
}

function ignored(state: PiLifecycleState, index: number): PiLifecycleStep {
  if (state.reportedIgnored) return { state: { ...state, events: state.events + 1 }, diagnostics: [] };
  return {
    state: { ...state, events: state.events + 1, reportedIgnored: true },
    diagnostics: [d(C.ignoredAfterFailure, 'info', index, 'the client stopped reading after its failure: this and all later frames have no effect')],
  };
}

/** Feeds one input; returns the new state and the diagnostics it caused. */
export function stepPiLifecycle(state: PiLifecycleState, input: PiLifecycleInput): PiLifecycleStep {
  switch (input.kind) {
    case 'response': {
      const failure = piHttpFailure(input);
      if (failure === undefined) return { state, diagnostics: [] };
      const step = failPiClient(state.client, failure);
      return { state: { ...state, client: step.state }, diagnostics: [d(C.httpError, 'error', 0, `HTTP ${input.status}: the client fails with "${failure}"`)] };
    }
    case 'line': {
      const { line } = input;
      if (!line.specDataWithoutSpace || state.client.stopped) return { state, diagnostics: [] };
      return { state, diagnostics: [d(C.dataWithoutSpace, 'warning', state.events, `line ${line.index + 1} "${line.text.slice(0, 40)}" starts with "data:" without a space: pi ignores it`)] };
    }
    case 'malformed': {
      if (state.client.stopped) return ignored(state, input.index);
      const step = failPiClient(state.client, input.error);
      return {
        state: { ...state, client: step.state, events: state.events + 1 },
        diagnostics: [d(C.malformedJson, 'error', input.index, `data is not JSON (${input.error}): the client fails and ignores the rest of the stream`)],
      };
    }
    case 'event': {
      const form = state.form ?? detectPiForm(input.raw);
      const s = form && !state.form ? { ...state, form } : state;
      if (form === 'agent') return onAgentEvent(s, input.raw, input.index);
      if (s.client.stopped) return ignored(s, input.index);
      return onClientEvent(s, input.raw, input.index, form ?? 'proxy');
    }
    case 'end':
      return endStep(state, input);
  }
}

/** An aborted or broken connection fails the client (and settles it) instead of leaving result() pending. */
function endStep(state: PiLifecycleState, input: Extract<PiLifecycleInput, { kind: 'end' }>): PiLifecycleStep {
  const { endState } = input;
  if (endState === 'open' || endState === 'evicted-open') return { state, diagnostics: [] };
  const last = Math.max(0, state.events - 1);
  const broken = endState === 'aborted' || endState === 'cancelled' || endState === 'error';
  if (!broken || state.client.settled || state.client.stopped || state.form === 'agent') {
    return { state, diagnostics: endDiagnostics(state, input.pending ?? '') };
  }
  const aborted = endState !== 'error';
  const message = aborted ? PI_ABORT_MESSAGE : piNetworkErrorMessage(input.error);
  const step = failPiClient(state.client, message, aborted ? 'aborted' : 'error');
  // A stream that ended with its page (it left, its frame was removed, its tab closed) was not the page's abort.
  const by = endedWithPage(input.error) ? `the stream ended with its page: ${input.error} —` : `the page ${endState === 'cancelled' ? 'cancelled' : 'aborted'} the stream:`;
  const diagnostic = aborted
    ? d(C.streamAborted, 'info', last, `${by} the client yields an error event (reason "aborted")`)
    : d(C.networkError, 'error', last, `the connection failed (${input.error ?? message}): the client yields an error event with errorMessage "${message}"`);
  return { state: { ...state, client: step.state }, diagnostics: [diagnostic] };
}

function endDiagnostics(state: PiLifecycleState, pending: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const last = Math.max(0, state.events - 1);
  if (pending.trim() !== '') {
    const what = pending.startsWith('data: ') ? 'a data frame the client never processes' : 'text the client never processes';
    out.push(d(C.unterminatedFinalLine, 'warning', last, `the body ends without a newline after "${pending.slice(0, 40)}": ${what}`));
  }
  if (state.form === 'agent') return [...out, ...checkAgentSequence(state.agent, { type: '<end>' }, last).diagnostics];
  if (!state.client.settled) {
    out.push(d(C.noTerminal, 'error', last, 'the body ended without done/error: result() never settles (the agent loop waits forever)'));
  }
  return out;
}
