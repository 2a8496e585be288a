// A real pi-agent-core Agent whose model call fails (pi-ai's faux provider answering stopReason "error"): the agent
// forwards no error event — its loop ends the message with a message_end carrying the failed message — so that is
// where the analysis must tell the failure, as pi.stream-error tells the other forms' error event.
import { Agent } from '@mariozechner/pi-agent-core';
import { fauxAssistantMessage, fauxText, registerFauxProvider } from '@mariozechner/pi-ai';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { captureOf, sseBody } from '../analysis/support.ts';

const faux = registerFauxProvider({ tokenSize: { min: 1, max: 2 } });
afterAll(() => faux.unregister());

/** The AgentEvents of one prompt, serialised as they are emitted (a server forwarding them). */
async function agentRun(reply: ReturnType<typeof fauxAssistantMessage>): Promise<Record<string, unknown>[]> {
  faux.setResponses([reply]);
  const agent = new Agent({ initialState: { model: faux.getModel(), systemPrompt: 'test', tools: [] } });
  const events: Record<string, unknown>[] = [];
  agent.subscribe((e) => void events.push(JSON.parse(JSON.stringify(e))));
  await agent.prompt('hi');
  return events;
}

function analyse(events: Record<string, unknown>[]) {
  const [conn] = analyzeCapture({
    header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
    records: captureOf([new TextEncoder().encode(sseBody(events))]),
  });
  return conn;
}

describe('an agent stream whose model call failed', () => {
  it('tells the failure and its errorMessage at the message_end', async () => {
    const events = await agentRun(fauxAssistantMessage(fauxText('Half an ans'), { stopReason: 'error', errorMessage: '529 overloaded' }));
    const conn = analyse(events);
    expect(conn.dialect).toBe('pi-agent');
    const found = conn.diagnostics.filter((d) => d.code === 'pi.stream-error');
    expect(found.map((d) => d.message)).toEqual(['the assistant message ended with stopReason "error": 529 overloaded']);
    expect(events[found[0].index]).toMatchObject({ type: 'message_end', message: { role: 'assistant', stopReason: 'error' } });
  });

  it('says nothing of a run that ended well', async () => {
    const conn = analyse(await agentRun(fauxAssistantMessage('All good.')));
    expect(conn.diagnostics.filter((d) => d.code === 'pi.stream-error')).toEqual([]);
  });
});
