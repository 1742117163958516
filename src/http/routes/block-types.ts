// GET /api/v1/block-types (docs/api.md 9): the block catalogue, for clients that build workflows.
import { Hono } from 'hono';
import { describeBlockTypes } from '../../blocks/describe.js';
import type { AppEnv } from '../env.js';

export const blockTypeRoutes = new Hono<AppEnv>().get('/', (c) => c.json({ data: describeBlockTypes() }));
