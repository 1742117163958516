// The order test files start in (vitest.config.ts `sequence.sequencer`). Two workers take files from one queue, so a
// pass ends when the worker holding the last long file is done, the other one idle meanwhile. Vitest starts the
// longest files first when it has their durations from an earlier run; without them (a fresh checkout, as in CI) it
// starts the largest, and the files that spawn `sluice` processes or a browser — short to read, each 20–50 s to run —
// came last, one worker waiting out the other. Without recorded durations they go first here.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What a file calls to start a process of its own — `sluice` (support/process.ts, jobs/worker-process.ts), chromium,
 * any command — or an embedded database on disk, which a child process creates.
 */
const STARTS_PROCESSES = /\b(startSluice|runSluice|spawnSluice|startWorkerProcess|useBrowserApp|spawn|spawnSync|execFile)\(|kind: 'pglite', dataDir/;

export default class ProcessesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`) !== undefined;
    if (sorted.every(timed)) return sorted;
    const startsProcesses = (file: TestSpecification) => STARTS_PROCESSES.test(readFileSync(file.moduleId, 'utf8'));
    return [...sorted.filter(startsProcesses), ...sorted.filter((file) => !startsProcesses(file))];
  }
}
