import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { databaseTestFiles } from './test/support/database-test-files.js';
import ProcessesFirstSequencer from './test/support/sequencer.js';

// With TEST_DATABASE_URL (CI's second pass, on PostgreSQL) only the files that can see it run: the others would
// repeat the first pass exactly. test/support/database-test-files.ts says how a file is classified. The browser
// journeys (test/web) and the TypeScript client's tests (clients/, its CLI included) are left out of that pass too: they
// drive the API, whose behaviour on PostgreSQL the API tests check, and the browser and the CLI's processes are the
// slowest part of a pass.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    // Vitest keeps each file's duration from the last run, per project name, and starts the longest first. Named
    // apart, the PostgreSQL pass never reads the PGlite pass's (CI runs it right after): there its PostgreSQL-only
    // files, among the longest of this pass, were skipped in no time, so they were ordered as instant and ran last.
    ...(onPostgres ? { name: 'postgres' } : {}),
    include: onPostgres
      ? databaseTestFiles(fileURLToPath(new URL('.', import.meta.url)), ['test']).filter((file) => !file.startsWith('test/web/'))
      : ['test/**/*.test.ts', 'clients/**/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Files that start processes first when no earlier run's durations are at hand (test/support/sequencer.ts).
    sequence: { sequencer: ProcessesFirstSequencer },
    // Files share their worker process, so the app's modules are loaded once per worker instead of once per file
    // (~2 s of CPU per file, a third of a pass); test/support/shared-process.ts puts back what a file changes
    // process-wide.
    isolate: false,
    setupFiles: ['test/support/shared-process.ts'],
    testTimeout: 30_000,
    // expect.poll's 1 s default is shorter than a browser journey's step under a loaded CI pass (a list that
    // fills after its fetch, an editor re-rendered by an autosave); 10 s, like test/support/eventually.ts.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
