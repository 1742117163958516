// Agent conversation memories of a workflow (docs/api.md "Agent memories"), under /api/v1/workflows/{workflowId}/memories:
// listed and read by any member of the workspace (conversations are read like logs), deleted by editors and up.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { requireRole } from '../../services/access.js';
import { deleteMemory, getMemory, listMemories, MAX_MEMORY_KEY_LENGTH } from '../../services/agent-memory.js';
import { storableString } from '../../services/storable-text.js';
import { getWorkflowForPrincipal } from '../../services/workflows.js';
import { requireApiKey } from '../auth.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { parseId, parseWith, readQuery } from '../validation.js';

const page = (max: number, byDefault: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(max).default(byDefault),
    cursor: storableString.max(1000).optional(),
  });
const memoryListQuery = page(100, 20);
const memoryMessagesQuery = page(500, 100);
const memoryKey = storableString.min(1).max(MAX_MEMORY_KEY_LENGTH);

/** Authenticates unless an enclosing guard already did (the /workflows guard may cover these paths too). */
const authenticated = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('principal')) return next();
  return requireApiKey(c, next);
});

async function loadWorkflow(c: Context<AppEnv>) {
  const workflowId = parseId(c.req.param('workflowId'), 'workflow id', 'workflowId');
  return getWorkflowForPrincipal(c.get('app').db, c.get('principal'), workflowId);
}

const readKey = (c: Context<AppEnv>) => parseWith(memoryKey, c.req.param('key'), 'memory key', 'key');

const base = '/{workflowId}/memories';

export const memoryRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({
      method: 'get',
      path: base,
      middleware: authenticated,
      summary: 'List the agent conversation memories of a workflow (most recently updated first)',
      query: memoryListQuery,
      response: 'MemoryPage',
    }),
    async (c) => {
      const workflow = await loadWorkflow(c);
      return c.json(await listMemories(c.get('app').db, workflow.id, readQuery(c, memoryListQuery)));
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: `${base}/{key}`,
      middleware: authenticated,
      summary: 'Read an agent conversation memory: its messages, oldest first (the key URL-encoded)',
      query: memoryMessagesQuery,
      response: 'MemoryDetail',
    }),
    async (c) => {
      const workflow = await loadWorkflow(c);
      const key = readKey(c);
      return c.json(await getMemory(c.get('app').db, workflow.id, key, readQuery(c, memoryMessagesQuery)));
    },
  )
  .openapi(
    operation({ method: 'delete', path: `${base}/{key}`, middleware: authenticated, summary: 'Delete an agent conversation memory', success: 204 }),
    async (c) => {
      const workflow = await loadWorkflow(c);
      const key = readKey(c);
      await requireRole(c.get('app').db, c.get('principal'), workflow.workspaceId, 'editor', 'delete agent memories');
      await deleteMemory(c.get('app').db, workflow.id, key);
      return c.body(null, 204);
    },
  );
