// Folders group workflows inside a workspace; they nest through parentId.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { folders } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';

type FolderRow = typeof folders.$inferSelect;

export const toFolderView = (row: FolderRow) => ({
  id: row.id,
  workspaceId: row.workspaceId,
  parentId: row.parentId,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

export async function findFolder(db: Db, folderId: string): Promise<FolderRow | undefined> {
  const [row] = await db.select().from(folders).where(eq(folders.id, folderId)).limit(1);
  return row;
}

async function assertParent(db: Db, workspaceId: string, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  // Walk up from the new parent: meeting the folder itself would make a cycle.
  let cursor: string | null = parentId;
  for (let depth = 0; cursor; depth++) {
    const parent = await findFolder(db, cursor);
    if (!parent || parent.workspaceId !== workspaceId) {
      throw badRequest('The parent folder does not exist in this workspace', [{ path: 'parentId', message: 'unknown folder' }]);
    }
    if (cursor === selfId || depth > 50) {
      throw badRequest('A folder cannot be moved inside itself', [{ path: 'parentId', message: 'would create a cycle' }]);
    }
    cursor = parent.parentId;
  }
}

export async function createFolder(db: Db, input: { workspaceId: string; name: string; parentId?: string | null }) {
  await assertParent(db, input.workspaceId, input.parentId);
  const [row] = await db
    .insert(folders)
    .values({ id: newId('fld'), workspaceId: input.workspaceId, name: input.name, parentId: input.parentId ?? null })
    .returning();
  return toFolderView(row);
}

export async function listFolders(db: Db, workspaceId: string) {
  const rows = await db.select().from(folders).where(eq(folders.workspaceId, workspaceId)).orderBy(asc(folders.createdAt));
  return rows.map(toFolderView);
}

export async function updateFolder(db: Db, row: FolderRow, patch: { name?: string; parentId?: string | null }) {
  if (patch.parentId !== undefined) await assertParent(db, row.workspaceId, patch.parentId, row.id);
  const [updated] = await db
    .update(folders)
    .set({ ...(patch.name !== undefined && { name: patch.name }), ...(patch.parentId !== undefined && { parentId: patch.parentId }) })
    .where(and(eq(folders.id, row.id)))
    .returning();
  if (!updated) throw notFound('Folder');
  return toFolderView(updated);
}

/** Workflows in a deleted folder move to the workspace root (FK on delete set null); child folders move up. */
export async function deleteFolder(db: Db, row: FolderRow) {
  await db.transaction(async (tx) => {
    await tx.update(folders).set({ parentId: row.parentId }).where(eq(folders.parentId, row.id));
    await tx.delete(folders).where(eq(folders.id, row.id));
  });
}
