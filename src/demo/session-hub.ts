// The service side of AgentScope sessions, in memory: sessions, per-session subscribers of the long-lived SSE stream,
// the current run's replay log, one run at a time per session, and runs parked on human-in-the-loop input.
// Mirrors agentscope/app: _router/_session.py (stream), _router/_chat.py (trigger), _service/_chat.py (run).

import type { IdSource } from './wire/ids.ts';
import { EventFactory, type WireEvent } from './wire/events.ts';
import { pythonJsonDumps } from './wire/python-json.ts';
import { InputError, readChatInput } from './normalize-input.ts';
import { pickScenario, type ResumeKind, type Scenario, type ScenarioContext } from './scenarios/index.ts';

export interface HubOptions {
  ids: IdSource;
  /** 1 = realistic pacing; 0 = fast (every pause is one event-loop turn, frames stay separate writes). */
  speed: number;
  agentName: string;
  /** Called when a reply parks on HITL input (tests answer from here; the page answers from the stream). */
  onPark?: (sessionId: string, kind: ResumeKind, replyId: string) => void;
  /** Replaces the pacing (e.g. a virtual clock when recording a capture); default follows `speed`. */
  pause?: (ms: number) => Promise<void>;
  /** Which scenario a user message runs (default: the registry's `pickScenario`). */
  pickScenario?: (msg: { metadata?: unknown; text: string }) => Scenario;
}

/** Something that receives SSE frames (an HTTP response in the server, an array in tests). */
export type FrameSink = (frame: string) => void;

interface Parked {
  kind: ResumeKind;
  replyId: string;
  resume: (event: WireEvent) => void;
}

interface Session {
  id: string;
  agentId: string;
  subscribers: Set<FrameSink>;
  /** Frames of the current run; dropped when the run ends (the service's `log_trim`). */
  replay: string[];
  running: boolean;
  parked?: Parked;
}

export class SessionHub {
  private readonly sessions = new Map<string, Session>();
  private readonly ev: EventFactory;
  /** Runs still executing or parked, so `idle()` can wait for them (tests, shutdown). */
  private readonly active = new Set<Promise<void>>();

  constructor(private readonly opts: HubOptions) {
    this.ev = new EventFactory(opts.ids);
  }

  createSession(agentId: string): string {
    const id = this.opts.ids.id();
    this.sessions.set(id, { id, agentId, subscribers: new Set(), replay: [], running: false });
    return id;
  }

  has(sessionId: string, agentId: string): boolean {
    return this.sessions.get(sessionId)?.agentId === agentId;
  }

  /** Replays the current run's frames to `sink`, then delivers live frames until the returned function is called. */
  subscribe(sessionId: string, agentId: string, sink: FrameSink): () => void {
    const session = this.session(sessionId, agentId);
    for (const frame of session.replay) sink(frame);
    session.subscribers.add(sink);
    return () => session.subscribers.delete(sink);
  }

  /** POST /chat/: starts a run for a user message or resumes a parked one. Throws InputError (422/409/404). */
  trigger(sessionId: string, agentId: string, input: unknown): { status: string; session_id: string } {
    const session = this.session(sessionId, agentId);
    const parsed = readChatInput(input, this.opts.ids);
    if (parsed.kind === 'none') throw new InputError('input: the demo agent needs a message or a HITL result', 422);
    if (parsed.kind === 'resume') {
      const parked = session.parked;
      if (!parked || parked.replyId !== parsed.event.reply_id || parked.kind !== parsed.resume) {
        throw new InputError(`Session '${sessionId}' has no reply ${String(parsed.event.reply_id)} waiting for ${parsed.resume === 'confirm' ? 'a confirmation' : 'an external result'}.`, 409);
      }
      if (session.running) throw new InputError(`A chat run for session '${sessionId}' is already in progress.`, 409);
      session.parked = undefined;
      session.running = true;
      // As the service does on a continuation: broadcast the decision, then a REPLY_START with the same reply id.
      this.publish(session, parsed.event);
      this.publish(session, this.ev.replyStart({ session_id: session.id, reply_id: parked.replyId, name: this.opts.agentName }));
      parked.resume(parsed.event);
      return { status: 'started', session_id: sessionId };
    }
    if (session.running) throw new InputError(`A chat run for session '${sessionId}' is already in progress.`, 409);
    if (session.parked) throw new InputError(`Session '${sessionId}' is waiting for your answer to reply ${session.parked.replyId}.`, 409);
    this.run(session, (this.opts.pickScenario ?? pickScenario)(parsed));
    return { status: 'started', session_id: sessionId };
  }

  /** Resolves when no run is executing or parked (parked runs never finish on their own). */
  async idle(): Promise<void> {
    while (this.active.size) await Promise.race(this.active);
  }

  /** Ends every subscription (server shutdown). */
  closeAll(): void {
    for (const s of this.sessions.values()) s.subscribers.clear();
  }

  private session(sessionId: string, agentId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session || session.agentId !== agentId) throw new InputError(`Session '${sessionId}' not found.`, 404);
    return session;
  }

  private publish(session: Session, event: WireEvent): void {
    const frame = `data: ${pythonJsonDumps(event)}\n\n`;
    session.replay.push(frame);
    for (const sink of session.subscribers) sink(frame);
  }

  private run(session: Session, scenario: Scenario): void {
    session.running = true;
    let openReply: string | undefined;
    const ctx: ScenarioContext = {
      sessionId: session.id,
      agentName: this.opts.agentName,
      ev: this.ev,
      ids: this.opts.ids,
      emit: async (event) => {
        if (event.type === 'REPLY_START') openReply = String(event.reply_id);
        if (event.type === 'REPLY_END') openReply = undefined;
        this.publish(session, event);
        await turn(); // one frame per network write
      },
      pause: (ms) => (this.opts.pause ? this.opts.pause(ms) : this.opts.speed > 0 ? sleep(ms * this.opts.speed) : turn()),
      awaitResume: (kind, replyId) =>
        new Promise<WireEvent>((resolve) => {
          // Parked: the run is over for the service (lock released, replay log trimmed).
          session.running = false;
          session.replay = [];
          session.parked = { kind, replyId, resume: resolve };
          this.opts.onPark?.(session.id, kind, replyId);
        }),
    };
    const done = scenario
      .run(ctx)
      .catch((err: unknown) => {
        // The service closes a reply that died mid-stream with REPLY_END(error) (`_close_failed_reply`).
        console.error(`[demo] scenario ${scenario.name} failed:`, err);
        if (openReply) {
          this.publish(session, this.ev.replyEnd({
            session_id: session.id, reply_id: openReply, finished_reason: 'error',
            error: { type: 'internal', message: err instanceof Error ? err.message : String(err) },
          }));
        }
      })
      .finally(() => {
        session.running = false;
        session.replay = [];
        this.active.delete(done);
      });
    this.active.add(done);
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
