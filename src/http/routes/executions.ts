// POST /api/v1/executions/{executionId}/cancel — stop a queued or running execution wherever it runs
// (services/runs/cancel.ts). 200 once its log says `cancelled`, 202 while it is still stopping.
import { Hono } from 'hono';
import { cancelExecution } from '../../services/runs/cancel.js';
import type { AppEnv } from '../env.js';
import { id } from '../schemas.js';
import { parseWith } from '../validation.js';

export const executionRoutes = new Hono<AppEnv>().post('/:executionId/cancel', async (c) => {
  const executionId = parseWith(id, c.req.param('executionId'), 'execution id', 'executionId');
  const answer = await cancelExecution(c.get('app'), c.get('principal'), executionId);
  return c.json({ data: answer }, answer.status === 'cancelled' ? 200 : 202);
});
