// The scenario registry (order = order in the page's picker) and how a user message selects one.

import type { Scenario } from './types.ts';
import { customEvents, hints, multiModelUsage, plainText, replyError, thinkingThenText } from './text-scenarios.ts';
import { externalExecution, images, toolCall, userConfirm } from './tool-scenarios.ts';
import { broken } from './broken.ts';

export type { Scenario, ScenarioContext, ScenarioIntent, ResumeKind } from './types.ts';

export const SCENARIOS: readonly Scenario[] = [
  plainText, thinkingThenText, toolCall, images, userConfirm, externalExecution,
  multiModelUsage, replyError, hints, customEvents, broken,
];

export function scenarioByName(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/**
 * Which scenario a user message asks for: `metadata.scenario` (what the demo page sends), else a `/name` command
 * in the text, else a scenario whose prompt equals the text, else plain text.
 */
export function pickScenario(msg: { metadata?: unknown; text: string }): Scenario {
  const meta = msg.metadata as { scenario?: unknown } | undefined;
  if (meta && typeof meta.scenario === 'string') {
    const s = scenarioByName(meta.scenario);
    if (s) return s;
  }
  const command = /^\/([\w-]+)/.exec(msg.text.trim());
  if (command) {
    const s = scenarioByName(command[1]);
    if (s) return s;
  }
  return SCENARIOS.find((s) => s.prompt === msg.text.trim()) ?? plainText;
}
