import { defineConfig } from 'vitest/config';

// Unit tests only: Playwright specs live in test/e2e and must not be picked up here.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
    globalSetup: ['test/unit/conformance-present.ts'], // the reference cases beside the repository, or one clear error
    environment: 'node',
    testTimeout: 30_000,
  },
});
