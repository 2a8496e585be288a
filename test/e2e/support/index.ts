// Shared e2e helpers (one browser per spec file; servers on 127.0.0.1 port 0):
//   launchWithExtension()  → { context, extensionId, tabIdFor(page), watch(tabId), records(tabId), debug(fn),
//                              panelPage(tabId), restartServiceWorker(), close() }          (extension.ts)
//   startServer(handler)   → { url, port, server, close() }                                 (server.ts)
//   startAgentServer()     → an app page + AgentScope-like SSE endpoints that log the bytes sent (agent-server.ts)
//   waitForCapture(ext, tabId, urlPart) → a connection's records and rebuilt bytes          (capture.ts)
export * from './agent-server.ts';
export * from './capture.ts';
export * from './extension.ts';
export * from './server.ts';
