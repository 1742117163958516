import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { Context } from 'hono';
import { notFound } from '../../errors.js';
import { assertWorkspaceAccess, canAccessWorkspace, requireRole } from '../../services/access.js';
import { createFolder, deleteFolder, findFolder, listFolders, toFolderView, updateFolder } from '../../services/folders.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id, name } from '../schemas.js';
import { parseId, readBody, readQuery } from '../validation.js';

const folderCreate = z.strictObject({ workspaceId: id, name, parentId: id.nullable().optional() });
const folderUpdate = z
  .strictObject({ name: name.optional(), parentId: id.nullable().optional() })
  .refine((v) => Object.keys(v).length > 0, 'nothing to update');
const workspaceQuery = z.object({ workspaceId: id });

async function loadFolder(c: Context<AppEnv>) {
  const folderId = parseId(c.req.param('folderId'), 'folder id', 'folderId');
  const { db } = c.get('app');
  const row = await findFolder(db, folderId);
  if (!row || !(await canAccessWorkspace(db, c.get('principal'), row.workspaceId))) throw notFound('Folder');
  return row;
}

const FOLDERS = 'change folders';

async function loadFolderToChange(c: Context<AppEnv>) {
  const row = await loadFolder(c);
  await requireRole(c.get('app').db, c.get('principal'), row.workspaceId, 'editor', FOLDERS);
  return row;
}

export const folderRoutes = new OpenAPIHono<AppEnv>()
  .openapi(operation({ method: 'get', path: '/', summary: 'List folders', query: workspaceQuery, response: 'FolderList' }), async (c) => {
    const { workspaceId } = readQuery(c, workspaceQuery);
    const { db } = c.get('app');
    await assertWorkspaceAccess(db, c.get('principal'), workspaceId);
    return c.json({ data: await listFolders(db, workspaceId) });
  })
  .openapi(
    operation({ method: 'post', path: '/', summary: 'Create a folder', body: folderCreate, success: 201, response: 'FolderResponse' }),
    async (c) => {
      const body = await readBody(c, folderCreate);
      const { db } = c.get('app');
      await requireRole(db, c.get('principal'), body.workspaceId, 'editor', FOLDERS);
      return c.json({ data: await createFolder(db, body) }, 201);
    },
  )
  .openapi(operation({ method: 'get', path: '/{folderId}', summary: 'Read a folder', response: 'FolderResponse' }), async (c) =>
    c.json({ data: toFolderView(await loadFolder(c)) }),
  )
  .openapi(
    operation({ method: 'patch', path: '/{folderId}', summary: 'Rename or move a folder', body: folderUpdate, response: 'FolderResponse' }),
    async (c) => {
      const row = await loadFolderToChange(c);
      const body = await readBody(c, folderUpdate);
      return c.json({ data: await updateFolder(c.get('app').db, row, body) });
    },
  )
  .openapi(
    operation({ method: 'delete', path: '/{folderId}', summary: 'Delete a folder (its workflows move to the root)', success: 204 }),
    async (c) => {
      await deleteFolder(c.get('app').db, await loadFolderToChange(c));
      return c.body(null, 204);
    },
  );
