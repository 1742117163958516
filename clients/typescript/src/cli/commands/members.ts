// `sluice members list|invite|invites|role|remove`: the people of a workspace from a terminal, as the web app's Members
// page offers them (owners and admins change them; anyone in the workspace may list them).
import type { Command } from 'commander';
import type { MemberUpdate } from '../../types.js';
import { UsageError } from '../exit-codes.js';
import { action, common, jsonLine, note, out, positiveInt, table } from '../io.js';
import { openSession, type CommonOptions, type Session } from '../session.js';

const ROLES: ReadonlyArray<MemberUpdate['role']> = ['admin', 'editor', 'viewer'];

function assignableRole(value: string): MemberUpdate['role'] {
  if (!(ROLES as readonly string[]).includes(value)) throw new UsageError(`role must be one of ${ROLES.join(', ')}`);
  return value as MemberUpdate['role'];
}

/** A member named by user id or email address. */
async function memberId(session: Session, workspaceId: string, who: string): Promise<string> {
  if (!who.includes('@')) return who;
  const members = await session.client.members.list(workspaceId);
  const found = members.find((m) => m.email.toLowerCase() === who.toLowerCase());
  if (!found) throw new UsageError(`No member of this workspace has the address ${who}`);
  return found.userId;
}

export function registerMembers(program: Command): void {
  const members = program.command('members').description('the people of a workspace: roles and invite links');

  common(members.command('list'))
    .description('members and their roles')
    .action(
      action(async (options: CommonOptions) => {
        const session = openSession(options);
        const list = await session.client.members.list(await session.workspaceId());
        if (options.json) return void jsonLine(list);
        out(table([['USER', 'EMAIL', 'ROLE', 'JOINED'], ...list.map((m) => [m.userId, m.email, m.role, m.joinedAt])]));
      }),
    );

  common(members.command('invite'))
    .description('make a one-time invite link (printed once: hand it over yourself)')
    .requiredOption('--role <role>', 'admin, editor or viewer')
    .option('--email <address>', 'only this address may accept')
    .option('--expires-in-hours <hours>', 'how long the link works (default: the server’s)', positiveInt('--expires-in-hours'))
    .action(
      action(async (options: CommonOptions & { role: string; email?: string; expiresInHours?: number }) => {
        const role = assignableRole(options.role);
        const session = openSession(options);
        const invite = await session.client.members.invite(await session.workspaceId(), {
          role,
          ...(options.email ? { email: options.email } : {}),
          ...(options.expiresInHours ? { expiresInHours: options.expiresInHours } : {}),
        });
        if (options.json) return void jsonLine(invite);
        out(invite.url);
        note(`Invite for a${role === 'admin' ? 'n' : ''} ${invite.role}${invite.email ? ` (${invite.email} only)` : ''}, until ${invite.expiresAt}.`);
      }),
    );

  common(members.command('invites'))
    .description('pending invite links')
    .action(
      action(async (options: CommonOptions) => {
        const session = openSession(options);
        const list = await session.client.members.pendingInvites(await session.workspaceId());
        if (options.json) return void jsonLine(list);
        if (list.length === 0) return void note('No pending invites.');
        out(table([['ID', 'ROLE', 'EMAIL', 'EXPIRES'], ...list.map((i) => [i.id, i.role, i.email ?? '-', i.expiresAt])]));
      }),
    );

  common(members.command('role'))
    .description("change a member's role")
    .argument('<member>', 'user id or email address')
    .argument('<role>', 'admin, editor or viewer')
    .action(
      action(async (who: string, role: string, options: CommonOptions) => {
        const session = openSession(options);
        const workspaceId = await session.workspaceId();
        const member = await session.client.members.changeRole(workspaceId, await memberId(session, workspaceId, who), assignableRole(role));
        if (options.json) return void jsonLine(member);
        note(`${member.email} is now ${member.role}.`);
      }),
    );

  common(members.command('remove'))
    .description('remove a member from the workspace')
    .argument('<member>', 'user id or email address')
    .action(
      action(async (who: string, options: CommonOptions) => {
        const session = openSession(options);
        const workspaceId = await session.workspaceId();
        await session.client.members.remove(workspaceId, await memberId(session, workspaceId, who));
        if (!options.json) note(`Removed ${who}.`);
      }),
    );
}
