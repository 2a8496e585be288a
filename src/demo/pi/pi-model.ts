// The model descriptor the demo's pi client sends (the proxy reads api/provider/id from it) — shared by the page
// and the capture recorder so both send the same request body.

import type { Model } from '@mariozechner/pi-ai';

export const DEMO_PI_MODEL: Model<'anthropic-messages'> = {
  id: 'claude-sonnet-4-5',
  name: 'Claude Sonnet 4.5',
  api: 'anthropic-messages',
  provider: 'anthropic',
  baseUrl: 'https://api.anthropic.com',
  reasoning: true,
  input: ['text', 'image'],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 200000,
  maxTokens: 64000,
};

export const DEMO_PI_SYSTEM_PROMPT = 'You are a helpful coding agent.';
