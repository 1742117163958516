// Which server, key and workspace a command talks to: SLUICE_URL / SLUICE_API_KEY when set (scripts, CI), else the
// profile named by --profile, SLUICE_PROFILE or the last login.
import { createSluiceClient, type SluiceClient } from '../client.js';
import { SluiceError } from '../errors.js';
import type { WorkflowSummary } from '../types.js';
import { UsageError } from './exit-codes.js';
import { loadKey, loadProfiles } from './profiles.js';

export interface CommonOptions {
  profile?: string;
  workspace?: string;
  json?: boolean;
}

export interface Session {
  client: SluiceClient;
  url: string;
  profileName?: string;
  /** The workspace to act in: --workspace, SLUICE_WORKSPACE_ID, the profile's, or the key's only one. */
  workspaceId(): Promise<string>;
}

export function openSession(options: CommonOptions, env: NodeJS.ProcessEnv = process.env): Session {
  const profileName = options.profile ?? env.SLUICE_PROFILE ?? loadProfiles(env).current;
  const profile = loadProfiles(env).profiles[profileName];
  const url = env.SLUICE_URL || profile?.url;
  const apiKey = env.SLUICE_API_KEY || (profile ? loadKey(profileName, env) : undefined);
  if (!url || !apiKey) {
    const which = options.profile ?? env.SLUICE_PROFILE;
    throw new UsageError(
      which && !profile
        ? `No profile named "${which}": log in with \`sluice login --url <server> --key <key> --profile ${which}\``
        : 'Not logged in: run `sluice login --url <server> --key <key>` (or set SLUICE_URL and SLUICE_API_KEY)',
    );
  }
  const client = createSluiceClient({ baseUrl: url, apiKey });
  let workspace: Promise<string> | undefined;
  return {
    client,
    url,
    profileName: profile ? profileName : undefined,
    workspaceId() {
      workspace ??= (async () => {
        const chosen = options.workspace ?? env.SLUICE_WORKSPACE_ID ?? (env.SLUICE_URL ? undefined : profile?.workspaceId);
        if (chosen) return chosen;
        const me = await client.me();
        if (me.workspaces.length === 1) return me.workspaces[0].id;
        throw new UsageError(
          `This key reaches ${me.workspaces.length} workspaces: pass --workspace <id> (${me.workspaces.map((w) => `${w.id} ${w.name}`).join(', ')})`,
        );
      })();
      return workspace;
    },
  };
}

/** A workflow named by id (`wf_…`) or by its name in the workspace (case-insensitive). */
export async function resolveWorkflow(session: Session, nameOrId: string): Promise<{ id: string; name: string }> {
  if (/^wf_[A-Za-z0-9]+$/.test(nameOrId)) return { id: nameOrId, name: nameOrId };
  const all: WorkflowSummary[] = await session.client.workflows.list({ workspaceId: await session.workspaceId() });
  const matches = all.filter((w) => w.name.toLowerCase() === nameOrId.trim().toLowerCase());
  if (matches.length === 1) return { id: matches[0].id, name: matches[0].name };
  if (matches.length === 0) {
    throw new SluiceError({ status: 404, code: 'NOT_FOUND', message: `No workflow named "${nameOrId}" in workspace ${await session.workspaceId()}` });
  }
  throw new UsageError(`${matches.length} workflows are named "${nameOrId}": use an id (${matches.map((w) => w.id).join(', ')})`);
}
