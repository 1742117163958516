// GET /api/jobs/{taskId} — status of an async execution (docs/api.md 4.6).
import { OpenAPIHono } from '@hono/zod-openapi';
import { getJobStatus } from '../../runs/index.js';
import { requireApiKey } from '../auth.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { parseId } from '../validation.js';

export const jobRoutes = new OpenAPIHono<AppEnv>().openapi(
  operation({ method: 'get', path: '/{taskId}', middleware: requireApiKey, summary: 'Status of an async execution', response: 'JobStatus' }),
  async (c) => {
    const taskId = parseId(c.req.param('taskId'), 'task id', 'taskId');
    return c.json(await getJobStatus(c.get('app'), c.get('principal'), taskId));
  },
);
