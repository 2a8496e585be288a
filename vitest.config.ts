import { defineConfig } from 'vitest/config';

// Unit tests only: Playwright specs live in test/e2e and must not be picked up here.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
