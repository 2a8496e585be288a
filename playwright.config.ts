// e2e: Debian Chromium (/usr/bin/chromium) with the built extension (npm run build → dist/). No browser download.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
  },
});
