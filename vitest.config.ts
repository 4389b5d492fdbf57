import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'packages/*/e2e/**/*.test.ts'],
    globalSetup: ['packages/server/test/global-setup.ts'],
    pool: 'forks',
    // Two cores: two test files at a time, each on its own database.
    maxWorkers: 2,
    // A test's limit catches a hang. A browser journey (two browsers, a few password hashes and
    // accessibility scans) has taken over 30 s while another file's browser ran on the other core.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A poll waits for a state the page reaches (the app's code loaded, an answer shown); on two
    // busy cores that can take longer than the default second. The test's own limit still holds.
    expect: { poll: { timeout: 10_000 } },
    // The JSON report lets CI print one closing count line.
    reporters: ['default', ['json', { outputFile: 'test-artifacts/vitest-results.json' }]],
  },
});
