// Identity of the demo agent, shared by the server, the capture recorder and tests.

export const DEMO_AGENT_ID = 'demo-agent';
export const DEMO_AGENT_NAME = 'Friday';
