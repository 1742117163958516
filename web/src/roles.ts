// What the signed-in user's role in a workspace lets the pages offer. The server decides (services/access.ts); the
// pages only disable what it would refuse, with the reason beside it.
import type { Workspace } from './types';

export type Role = Workspace['role'];

export const canEdit = (role: Role | undefined) => role !== undefined && role !== 'viewer';
export const canManageMembers = (role: Role | undefined) => role === 'owner' || role === 'admin';

export const VIEWER_HINT = 'Viewers cannot edit, run or deploy workflows. Ask a workspace owner or admin for the editor role.';
