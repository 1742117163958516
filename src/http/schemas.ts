// Request schemas of the management API; the same schemas validate requests and describe them in OpenAPI.
import { z } from 'zod';
import { MEMBER_ROLES } from '../services/workspaces.js';
import { ENV_NAME_PATTERN } from '../services/env-vars.js';

export const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be an id');
const name = z.string().trim().min(1, 'must not be empty').max(200);

export const workspaceCreate = z.strictObject({ name });
export const memberAdd = z.strictObject({
  email: z.email().max(320),
  role: z.enum(MEMBER_ROLES.filter((r) => r !== 'owner') as ['admin', 'member']).default('member'),
});

export const workflowCreate = z.strictObject({
  workspaceId: id,
  name,
  description: z.string().max(2000).optional(),
  folderId: id.nullable().optional(),
  state: z.unknown().optional(),
});
export const workflowUpdate = z
  .strictObject({
    name: name.optional(),
    description: z.string().max(2000).optional(),
    folderId: id.nullable().optional(),
    state: z.unknown().optional(),
    /** POST /api/chat/{id} without an API key (README "Other triggers", chat). */
    chatPublic: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'nothing to update');
export const workflowListQuery = z.object({ workspaceId: id, folderId: id.optional() });
/** POST /api/v1/workflows/import: a document from GET …/export (services/workflow-transfer.ts). */
export const workflowImport = z.strictObject({
  workspaceId: id,
  document: z.unknown(),
  folderId: id.nullable().optional(),
  /** Overrides the document's name. */
  name: name.optional(),
});
export const versionParam = z.coerce.number().int().min(1).max(1_000_000);

export const folderCreate = z.strictObject({ workspaceId: id, name, parentId: id.nullable().optional() });
export const folderUpdate = z
  .strictObject({ name: name.optional(), parentId: id.nullable().optional() })
  .refine((v) => Object.keys(v).length > 0, 'nothing to update');
export const workspaceQuery = z.object({ workspaceId: id });

export const envName = z.string().regex(ENV_NAME_PATTERN, 'must be a valid variable name (letters, digits, _)');
export const envVarsSet = z.strictObject({
  variables: z
    .record(envName, z.string().max(65_536))
    .refine((v) => Object.keys(v).length <= 500, 'at most 500 variables at once'),
});

export const apiKeyCreate = z.strictObject({ name, workspaceId: id.nullable().optional() });
