import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Time-zone code must not depend on the machine's zone.
    env: { TZ: 'UTC' },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/setup/fail-on-console-error.ts', 'tests/setup/report-retried-failures.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two files at a time: most of a file's time is waiting on a database, a socket or a
          // child process, so two share the machine's two cores well (the default on two cores is
          // one file at a time: 530 s for this project alone, 337 s with two).
          maxWorkers: 2,
          // Socket and multi-node tests wait on real timers; on a loaded 2-core CI machine one
          // may miss its window. A retry is reported; a test failing twice still fails the run.
          retry: 1,
        },
      },
      {
        test: {
          // Real server processes under database faults, kills and signals (needs TEST_DATABASE_URL and a build).
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/setup/fail-on-console-error.ts', 'tests/setup/report-retried-failures.ts'],
          testTimeout: 120_000,
          hookTimeout: 90_000,
          // Each file starts its own nodes: one file at a time keeps the machine's two cores for them.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/e2e/session-room.test.ts', 'tests/e2e/session-mesh.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/setup/report-retried-failures.ts', 'tests/e2e/setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // A page on a loaded 2-core machine can take seconds to answer: `expect.poll` waits 15 s, not 1.
          expect: { poll: { timeout: 15_000 } },
          maxWorkers: 2,
          // Real browsers on a loaded 2-core machine: one retry for a journey that missed a timing window.
          retry: 1,
        },
      },
      {
        test: {
          // The two journeys that record and measure live media: the two-party room (its recording's
          // frame rate and audio/video alignment are checked with ffprobe) and the four-browser mesh
          // room (12 encoders and 12 decoders). Beside other browser journeys on 2 cores their media
          // starves, so `npm test` runs them one at a time, after the other projects (package.json).
          name: 'media',
          include: ['tests/e2e/session-room.test.ts', 'tests/e2e/session-mesh.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/setup/report-retried-failures.ts', 'tests/e2e/setup.ts'],
          testTimeout: 420_000,
          hookTimeout: 420_000,
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
          retry: 1,
        },
      },
    ],
  },
});
