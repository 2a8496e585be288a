// The setup the capture specs share: one browser with the extension, the agent server, and one app tab whose
// capture is watched (like an open panel). Registers the hooks; `set` receives the parts once they exist.
import { test, type Page } from '@playwright/test';
import { startAgentServer, type AgentServer } from './agent-server.ts';
import { launchWithExtension, type ExtensionBrowser } from './extension.ts';

export interface WatchedAgentPage {
  ext: ExtensionBrowser;
  server: AgentServer;
  page: Page;
  tabId: number;
}

export function useWatchedAgentPage(set: (parts: WatchedAgentPage) => void): void {
  let parts: Partial<WatchedAgentPage> = {};
  test.beforeAll(async () => {
    const ext = await launchWithExtension();
    parts.ext = ext;
    const server = await startAgentServer();
    parts.server = server;
    const { page, tabId } = await ext.openWatchedPage(`${server.url}/app`);
    set({ ext, server, page, tabId });
  });
  test.afterAll(async () => {
    await parts.ext?.close();
    await parts.server?.close();
    parts = {};
  });
}
