// Executions in flight, wherever they run:
// - POST /api/v1/executions/{executionId}/cancel — stop a queued, running or paused execution
//   (services/runs/cancel-execution.ts). 200 once its log says `cancelled`, 202 while it is still stopping.
// - POST /api/v1/executions/{executionId}/resume — decide an approval a run waits for (services/runs/approvals.ts).
// - GET /api/v1/executions?workspaceId=…&status=paused — the runs waiting for a decision.
import { Hono } from 'hono';
import { z } from 'zod';
import { listPausedRuns, resumeBody, resumeExecution } from '../../services/runs/approvals.js';
import { cancelExecution } from '../../services/runs/cancel-execution.js';
import type { AppEnv } from '../env.js';
import { id } from '../schemas.js';
import { parseWith, readBody, readQuery } from '../validation.js';

export const pausedRunsQuery = z.strictObject({
  workspaceId: id,
  status: z.literal('paused').describe('Only runs waiting for an approval are listed'),
});

export const executionRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const query = readQuery(c, pausedRunsQuery);
    return c.json({ data: await listPausedRuns(c.get('app'), c.get('principal'), query.workspaceId) });
  })
  .post('/:executionId/cancel', async (c) => {
    const executionId = parseWith(id, c.req.param('executionId'), 'execution id', 'executionId');
    const answer = await cancelExecution(c.get('app'), c.get('principal'), executionId);
    return c.json({ data: answer }, answer.status === 'cancelled' ? 200 : 202);
  })
  .post('/:executionId/resume', async (c) => {
    const executionId = parseWith(id, c.req.param('executionId'), 'execution id', 'executionId');
    const body = await readBody(c, resumeBody);
    return c.json({ data: await resumeExecution(c.get('app'), c.get('principal'), executionId, body) }, 202);
  });
