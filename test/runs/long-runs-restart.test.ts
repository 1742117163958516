// A parked run across a restart (docs/workflows.md "Long runs"): a `sluice serve` process parks an async run in a
// 10-second wait and is killed with SIGKILL; the next process on the same data — the embedded database of a data
// directory, or PostgreSQL with TEST_DATABASE_URL — resumes it at its due time and finishes it with the right output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { eventually } from '../support/eventually.js';
import { startSluice, type SluiceProcess } from '../support/process.js';
import { restartableSluice, type RestartableSluice } from '../support/restartable.js';
import { makeState } from '../support/workflows.js';

const key = generateApiKey();
let env: Record<string, string>;
let call: RestartableSluice['call'];
let dispose: RestartableSluice['dispose'] | undefined;

beforeAll(async () => {
  ({ env, call, dispose } = await restartableSluice('sluice-long-run-', key));
});
afterAll(async () => {
  await dispose?.();
});

describe('a parked run across a restart', { timeout: 120_000 }, () => {
  it('is resumed by the next process after kill -9 and finishes with the right output', async () => {
    const state = {
      ...makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'item', type: 'string' }] } },
          { id: 'pause', type: 'wait', name: 'Pause', config: { ms: 10_000 } },
          { id: 'after', type: 'response', name: 'After', config: { body: { item: '<api.item>', waited: '<pause.waitedMs>' } } },
        ],
        [
          ['start', 'pause'],
          ['pause', 'after'],
        ],
      ),
      flowControl: { timeoutMs: 3_600_000 },
    };
    let server: SluiceProcess | undefined;
    try {
      server = await startSluice(env);
      const me = await call(server, 'GET', '/api/v1/me');
      const workspaceId: string = me.body.workspaces[0].id;
      const created = await call(server, 'POST', '/api/v1/workflows', { workspaceId, name: 'Waits', state });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const workflowId: string = created.body.data.id;
      expect((await call(server, 'POST', `/api/v1/workflows/${workflowId}/deploy`)).status).toBe(200);
      const queued = await call(server, 'POST', `/api/workflows/${workflowId}/execute`, { item: 'survivor' }, { 'X-Execution-Mode': 'async' });
      expect(queued.status).toBe(202);
      const first = server;
      await eventually(async () => (await call(first, 'GET', `/api/jobs/${queued.body.taskId}`)).body.status === 'paused', 30_000, 'the run to park');
      await server.stop('SIGKILL');

      server = await startSluice(env);
      const second = server;
      const done = await eventually(async () => {
        const job = (await call(second, 'GET', `/api/jobs/${queued.body.taskId}`)).body;
        return ['completed', 'failed', 'cancelled'].includes(job.status) && job;
      }, 60_000, 'the parked run to finish');
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.output.body).toEqual({ item: 'survivor', waited: 10_000 });
    } finally {
      await server?.stop();
    }
  });
});
