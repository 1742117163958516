// The PostgreSQL pass (vitest.config.ts) runs the test files that can open a test database or read its URL, and no
// other: a file that starts an app through a helper is in it, a pure engine or workflow test is not.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { databaseTestFiles } from './support/database-test-files.js';

const files = databaseTestFiles(process.cwd(), ['test', 'clients']);

it('holds the files that start an app or a database, directly or through a helper', () => {
  expect(files).toContain('test/http/logs.test.ts'); // startTestApp
  expect(files).toContain('test/jobs/queue.test.ts'); // createTestDatabase
  expect(files).toContain('clients/typescript/test/client.test.ts'); // through clients/typescript/test/support.ts
  expect(files).toContain('test/cli/concurrent-start.test.ts'); // reads the URL itself
  for (const file of files) expect(file).toMatch(/\.test\.ts$/);
});

it('leaves out the files that never see a database URL', () => {
  for (const file of ['test/engine/flow.test.ts', 'test/workflow/resolve.test.ts', 'test/web/editor-model.test.ts', 'test/version.test.ts']) {
    expect(readFileSync(file, 'utf8')).toBeTruthy(); // the file exists: a rename does not pass this silently
    expect(files).not.toContain(file);
  }
});
