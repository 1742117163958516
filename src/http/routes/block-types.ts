// GET /api/v1/block-types (docs/api.md 9): the block catalogue, for clients that build workflows.
import { OpenAPIHono } from '@hono/zod-openapi';
import { listBlockTypes } from '../../services/block-types.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';

export const blockTypeRoutes = new OpenAPIHono<AppEnv>().openapi(
  operation({
    method: 'get',
    path: '/',
    summary: 'The block types workflows are built from: palette entry, form fields, outputs, config JSON Schema',
    response: 'BlockTypeList',
  }),
  (c) => c.json({ data: listBlockTypes() }),
);
