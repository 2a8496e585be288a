// What a scripted scenario is: a deterministic agent "run" that emits AgentScope events through a context, plus the
// facts its final message must have (written by hand, independently of any reconstruction, for the unit tests).

import type { IdSource } from '../wire/ids.ts';
import type { EventFactory, ReplyFinishedReason, WireEvent } from '../wire/events.ts';
import type { ToolCallState, ToolResultState } from '../wire/blocks.ts';

export type ResumeKind = 'confirm' | 'external';

export interface ScenarioContext {
  readonly sessionId: string;
  /** The agent's display name (REPLY_START.name). */
  readonly agentName: string;
  readonly ev: EventFactory;
  readonly ids: IdSource;
  /** Publishes one event on the session stream (one SSE frame, one network write). */
  emit(event: WireEvent): Promise<void>;
  /** Waits `ms` at normal speed (scaled down to a bare event-loop turn in fast mode). */
  pause(ms: number): Promise<void>;
  /**
   * Parks the reply on a human-in-the-loop request: the run ends (as the AgentScope service's run does) and this
   * promise resolves with the USER_CONFIRM_RESULT / EXTERNAL_EXECUTION_RESULT event (already normalised and
   * published, followed by the continuation REPLY_START) once the page POSTs it to /chat/.
   */
  awaitResume(kind: ResumeKind, replyId: string): Promise<WireEvent>;
}

/** Key facts of the intended final message, compared with what the core reconstructs. */
export interface ScenarioIntent {
  finished_reason: ReplyFinishedReason | null;
  texts: string[];
  thinking?: string[];
  toolCalls?: { name: string; input: unknown; state: ToolCallState }[];
  toolResults?: { name: string; state: ToolResultState; text?: string; dataMediaTypes?: string[] }[];
  /** Media types of the message's own (top-level) data blocks, in order. */
  data?: string[];
  hints?: number;
  usage?: { input_tokens: number; output_tokens: number; cache_input_tokens?: number; cache_creation_input_tokens?: number };
  error?: { type: string; message: string };
}

export interface Scenario {
  /** Stable id used by the page picker, `metadata.scenario` of the user Msg, and tests. */
  name: string;
  title: string;
  /** The user message the page sends for it. */
  prompt: string;
  description: string;
  /** What the page answers when the scenario parks (the e2e test clicks the same). */
  hitl?: ResumeKind;
  run(ctx: ScenarioContext): Promise<void>;
  /** Intended final message after the default answer (Allow / the browser's external result). */
  intent: ScenarioIntent;
  /** Intended final message when the user answers Deny (confirmation scenarios only). */
  deniedIntent?: ScenarioIntent;
}
