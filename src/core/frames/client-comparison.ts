// Where the line-reading client (AgentScope web UI, pi streamProxy: see client-reading.ts) and the SSE spec reading
// (sse-spec.ts) of the same body disagree, frame by frame — the `sse.client-*` diagnostics. Split from
// client-reading.ts.
import type { Diagnostic } from '../diagnostics/types.ts';
import type { AgentScopeClientReader, ClientLine } from './client-reading.ts';
import type { FrameList, PlacedFrame } from './frame-list.ts';
import type { SpecTail } from './sse-spec.ts';

export interface ClientComparison {
  diagnostics: Diagnostic[];
  /** frame index -> how the client reads that frame differently (for FrameView.clientNote). */
  notes: Map<number, string>;
}

/** What the client holds unread at the end of the body (AgentScopeClientReader.finish). */
type ClientTail = { unread: string; start: number };

/** Where a comparison's pass over the frames stands (see ClientComparer): it resumes from here. */
interface PassState {
  /** Next frame to compare, and the first client line that may lie in it. */
  fi: number;
  li: number;
  stopFrame: number | undefined;
  /** What the frames before `fi` gave. */
  diagnostics: Diagnostic[];
  notes: Map<number, string>;
  /** The inputs the frames before `fi` were compared with. */
  clientName: string;
  stoppedAt: number | undefined;
}

/** How messages name the client unless told otherwise. */
const AGENTSCOPE_CLIENT = 'the AgentScope client';

const freshPass = (clientName: string, stoppedAt: number | undefined): PassState =>
  ({ fi: 0, li: 0, stopFrame: undefined, diagnostics: [], notes: new Map(), clientName, stoppedAt });

/**
 * Compares the spec frames with what the line-reading client (AgentScope web UI, pi streamProxy) yields. Diagnostic `index` is the frame index;
 * diagnostics about text after the last frame use `frames.length`.
 */
export function compareWithAgentScopeClient(
  frames: FrameList,
  specTail: SpecTail | undefined,
  client: AgentScopeClientReader,
  clientTail: ClientTail | undefined,
  /** How messages name the client; pi-agent-core's streamProxy reads SSE exactly the same way. */
  clientName = AGENTSCOPE_CLIENT,
): ClientComparison {
  const pass = freshPass(clientName, client.stoppedAt);
  comparePass(pass, frames, client, clientTail);
  return finishComparison(pass, frames, specTail, client, clientTail);
}

/**
 * The same comparison for a body that is still being read, resumed where the previous one stopped. A completed frame
 * compares the same whatever arrives after it once the client has finished every line that starts inside it (a frame
 * the spec ended with CRs can still be inside the client's unfinished line), as long as the body has not ended (the
 * client's unread tail is only known then) and the client neither stopped nor was renamed since (then it starts
 * over). Frames not settled yet are compared afresh on each call, on a copy of the pass. Without this, the panel
 * compared every frame of a live stream again on each refresh — tens of ms per refresh at 300,000 events.
 */
export class ClientComparer {
  private pass: PassState | undefined;

  /** `compareWithAgentScopeClient`'s arguments; with a client tail (the body ended) it is that function, whole. */
  compare(...args: Parameters<typeof compareWithAgentScopeClient>): ClientComparison {
    const [frames, specTail, client, clientTail, clientName = AGENTSCOPE_CLIENT] = args;
    if (clientTail !== undefined) return compareWithAgentScopeClient(...args);
    let pass = this.pass;
    if (pass === undefined || pass.clientName !== clientName || pass.stoppedAt !== client.stoppedAt || pass.fi > frames.length) {
      pass = this.pass = freshPass(clientName, client.stoppedAt);
    }
    let settled = pass.fi;
    while (settled < frames.length && frames.end(settled) <= client.pendingStart) settled++;
    comparePass(pass, frames, client, undefined, settled);
    if (settled === frames.length) return finishComparison(pass, frames, specTail, client, undefined);
    const unsettled: PassState = { ...pass, diagnostics: [...pass.diagnostics], notes: new Map(pass.notes) };
    comparePass(unsettled, frames, client, undefined, frames.length);
    return finishComparison(unsettled, frames, specTail, client, undefined);
  }
}

/** Compares frames `pass.fi` up to `upTo`, adding to `pass`. */
function comparePass(
  pass: PassState,
  frames: FrameList,
  client: AgentScopeClientReader,
  clientTail: ClientTail | undefined,
  upTo = frames.length,
): void {
  const clientName = pass.clientName;
  // At a sentence's start: "The AgentScope web UI"; a package name keeps its case ("pi-agent-core's streamProxy").
  const Name = clientName.startsWith('pi-') ? clientName : clientName.charAt(0).toUpperCase() + clientName.slice(1);
  const { diagnostics, notes } = pass;
  // Lines are read from the reader's columns; line objects are built only for frames that need a closer look
  // (building all of them on every comparison made the panel's live updates several times slower).
  const n = client.lineCount;
  const stopAt = client.stoppedAt;
  const stopLine = stopAt === undefined ? undefined : client.lineAt(stopAt);
  const unreadCRStart = clientTail && clientTail.unread !== '' && clientTail.unread.includes('\r') ? clientTail.start : Infinity;
  let li = pass.li;
  let stopFrame = pass.stopFrame;
  const add = (code: string, severity: Diagnostic['severity'], index: number, message: string, note?: string) => {
    diagnostics.push({ code, severity, index, message });
    if (note && index < frames.length && !notes.has(index)) notes.set(index, note);
  };

  // Indexed, not for-of: a one-off pass over every frame runs unoptimised, where for-of allocates per element.
  for (let fi = pass.fi; fi < upTo; fi++) {
    // Read from the frame list's columns: the frame object is built only for frames that need a closer look.
    const fStart = frames.start(fi);
    const fEnd = frames.end(fi);
    while (li < n && client.endOf(li) <= fStart) li++;
    let end = li;
    while (end < n && client.startOf(end) < fEnd) end++;
    if (stopLine && stopFrame !== undefined && fStart >= stopLine.end) {
      notes.set(fi, `never read: the client stopped at frame ${stopFrame} (JSON.parse threw)`);
      continue;
    }
    if (frames.kind(fi) !== 'data') continue;
    // The ordinary frame — one clean "data: " line holding exactly the frame's data — gets no diagnostic below.
    // (The analysis hands the client the frame's own data string when they are equal: then no trim is needed, the
    // client's text being trimmed already.)
    const fEvent = frames.event(fi);
    const fData = frames.data(fi);
    if (end === li + 1 && client.isCleanEvent(li) && client.startOf(li) >= fStart && fStart < unreadCRStart &&
      (fEvent === undefined || fEvent === 'message') && (client.jsonOf(li) === fData || client.jsonOf(li) === fData.trim())) continue;
    const f = frames.at(fi) as PlacedFrame;
    const inside: ClientLine[] = [];
    for (let k = li; k < end; k++) inside.push(client.lineAt(k));
    const events = inside.filter((l) => l.kind === 'event' && l.start >= f.start);
    const broken = events.find((l) => l.error !== undefined && l.start === stopLine?.start); // line objects are built per read: compare positions
    if (broken) {
      stopFrame = f.index;
      add('sse.client-json-error', 'error', f.index,
        `${Name}'s JSON.parse throws on this frame (${broken.error})` +
          (events.length > 1 ? ` — it has ${events.length} "data: " lines and the client parses each alone` : '') +
          '; its stream generator throws and no later frame reaches the app.',
        'client: JSON.parse throws here, reading stops');
      continue;
    }
    const data = f.data.trim();
    if (data === '') continue; // empty keep-alive: the spec dispatches an empty event, the client skips it; no harm
    const unreadStart = clientTail && clientTail.unread !== '' ? clientTail.start : Infinity;
    const crMerged = inside.some((l) => l.innerCR || l.start < f.start) ||
      (f.start >= unreadStart && (clientTail?.unread ?? '').includes('\r'));
    if (crMerged) {
      add('sse.client-cr-line-endings', 'error', f.index,
        `This frame's lines end with a bare CR. ${Name} splits on "\\n" only, so it reads several lines as one and drops or misreads this frame.`,
        'client: CR line ends are not line ends for it; frame dropped/merged');
      continue;
    }
    if (events.length === 0) {
      if (f.start >= unreadStart) {
        add('sse.client-drops-frame', 'error', f.index,
          `No "\\n" follows this frame, so ${clientName} never processes it (it drops its unfinished buffer at end of body).`,
          'client: dropped (no newline after it)');
      } else if (inside.some((l) => l.kind === 'data-no-space')) {
        add('sse.client-drops-frame', 'error', f.index,
          `The frame's data lines start "data:" without a space. The spec accepts them; ${clientName} only reads lines starting exactly "data: " and drops this frame.`,
          'client: dropped ("data:" without a space)');
      } else {
        add('sse.client-drops-frame', 'error', f.index,
          `${Name} yields no event for this frame.`, 'client: dropped');
      }
      continue;
    }
    if (events.length > 1) {
      add('sse.client-splits-multiline-data', 'error', f.index,
        `The frame has ${events.length} "data: " lines. The spec joins them with "\\n" into one event; ${clientName} parses each line as a separate JSON event.`,
        `client: read as ${events.length} separate events`);
      continue;
    }
    if (events[0].json !== data) {
      add('sse.client-misreads-frame', 'error', f.index,
        `${Name} reads only part of this frame's data (other data lines lack "data: " exactly), so it parses different text than the spec delivers.`,
        'client: reads different text');
      continue;
    }
    if (f.event !== undefined && f.event !== 'message') {
      add('sse.client-ignores-event-name', 'info', f.index,
        `The frame is named "${f.event}". ${Name} ignores event: lines and handles it as an ordinary agent event.`,
        `client: ignores event name "${f.event}"`);
    }
  }

  pass.fi = upTo;
  pass.li = li;
  pass.stopFrame = stopFrame;
}

/**
 * The pass's answer plus what comes after the frames: lines no blank line closed, a last line without a newline. The
 * diagnostics are a new array (the pass goes on adding to its own); the notes are the pass's map, which only grows.
 */
function finishComparison(
  pass: PassState,
  frames: FrameList,
  specTail: SpecTail | undefined,
  client: AgentScopeClientReader,
  clientTail: ClientTail | undefined,
): ClientComparison {
  const clientName = pass.clientName;
  const diagnostics = [...pass.diagnostics];
  const n = client.lineCount;
  const stopAt = client.stoppedAt;
  const stopLine = stopAt === undefined ? undefined : client.lineAt(stopAt);
  const add = (code: string, severity: Diagnostic['severity'], index: number, message: string) => {
    diagnostics.push({ code, severity, index, message });
  };

  // Lines the client yields after the last spec frame: no blank line closed them, so the spec discards them.
  const lastEnd = frames.length ? frames.end(frames.length - 1) : 0;
  let stray = 0;
  for (let i = n - 1; i >= 0 && client.startOf(i) >= lastEnd; i--) {
    const l = client.lineAt(i);
    if (l.kind === 'event' && (!stopLine || l.start <= stopLine.start)) stray++;
  }
  if (stray > 0) {
    add('sse.client-reads-unterminated-frame', 'warning', frames.length,
      `The body ends with ${stray} data line(s) not followed by a blank line: the spec (and EventSource) discards them, ${clientName} yields them.`);
  }
  const unread = clientTail?.unread ?? '';
  const pending = specTail?.pendingText ?? '';
  if (specTail?.pendingData && unread !== '' && pending !== '' && !/[\r\n]$/.test(pending)) {
    add('sse.unterminated-final-line', 'warning', frames.length,
      `The body ends in the middle of a line (no newline after the last data line): neither the spec nor ${clientName} delivers it.`);
  }
  return { diagnostics, notes: pass.notes };
}
