// GET /api/jobs/{taskId} — status of an async execution (docs/api.md 4.6).
import { Hono } from 'hono';
import { getJobStatus } from '../../runs/index.js';
import { requireApiKey } from '../auth.js';
import type { AppEnv } from '../env.js';
import { id } from '../schemas.js';
import { parseWith } from '../validation.js';

export const jobRoutes = new Hono<AppEnv>().get('/:taskId', requireApiKey, async (c) => {
  const taskId = parseWith(id, c.req.param('taskId'), 'task id', 'taskId');
  return c.json(await getJobStatus(c.get('app').db, c.get('principal'), taskId));
});
