import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI the tests run is compiled from the sources as they are (a targeted run after an edit).
    globalSetup: ['test/setup/compile-if-stale.ts'],
    // Two files at a time: most tests wait on the CLI, a browser or a server in a child process,
    // so two keep both cores of a CI machine busy (the default, one less than the cores, runs one).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
