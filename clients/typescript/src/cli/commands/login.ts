// `sluice login` saves a server and key as a profile once the server accepts the key; `sluice logout` forgets one.
import type { Command } from 'commander';
import { createSluiceClient } from '../../client.js';
import { UsageError } from '../exit-codes.js';
import { action, common, jsonLine, note, out, readStdin } from '../io.js';
import { configFile, credentialsFile, DEFAULT_PROFILE, removeProfile, saveProfile } from '../profiles.js';
import type { CommonOptions } from '../session.js';

export function registerLogin(program: Command): void {
  common(program.command('login'), { workspace: false })
    .description('save a server URL and API key as a profile (checked against the server first)')
    .requiredOption('--url <url>', 'the server, e.g. http://127.0.0.1:3000')
    .option('--key <key>', 'the API key (or --key-stdin, or SLUICE_API_KEY)')
    .option('--key-stdin', 'read the API key from standard input')
    .option('--workspace <id>', 'workspace commands act in (default: the key\'s first)')
    .action(
      action(async (options: CommonOptions & { url: string; key?: string; keyStdin?: boolean }) => {
        const key = (options.keyStdin ? readStdin().trim() : options.key) ?? process.env.SLUICE_API_KEY;
        if (!key) throw new UsageError('Give the API key with --key, --key-stdin or SLUICE_API_KEY');
        if (!/^https?:\/\/[^\s/]+/.test(options.url)) throw new UsageError('--url must be an http(s) address, e.g. http://127.0.0.1:3000');
        const url = options.url.replace(/\/+$/, '');
        // Nothing is saved unless the server accepts the key.
        const me = await createSluiceClient({ baseUrl: url, apiKey: key }).me();
        if (options.workspace && !me.workspaces.some((w) => w.id === options.workspace)) {
          throw new UsageError(`This key does not reach workspace ${options.workspace} (it reaches ${me.workspaces.map((w) => w.id).join(', ') || 'none'})`);
        }
        const workspace = me.workspaces.find((w) => w.id === options.workspace) ?? me.workspaces[0];
        const name = options.profile ?? DEFAULT_PROFILE;
        saveProfile(name, { url, email: me.email, ...(workspace ? { workspaceId: workspace.id } : {}) }, key);
        if (options.json) {
          jsonLine({ profile: name, url, email: me.email, userId: me.userId, workspaceId: workspace?.id ?? null, workspaces: me.workspaces });
        } else {
          out(`Logged in to ${url} as ${me.email}${workspace ? `, workspace ${workspace.name} (${workspace.id})` : ''}.`);
          note(`Profile "${name}" saved in ${configFile()} (key in ${credentialsFile()}, readable by you only).`);
          if (me.workspaces.length > 1) note(`The key reaches ${me.workspaces.length} workspaces; pick another with --workspace <id>.`);
        }
      }),
    );

  common(program.command('logout'), { workspace: false })
    .description('forget a saved profile and its key')
    .action(
      action(async (options: CommonOptions) => {
        const name = options.profile ?? process.env.SLUICE_PROFILE ?? DEFAULT_PROFILE;
        if (!removeProfile(name)) throw new UsageError(`No profile named "${name}"`);
        if (options.json) jsonLine({ profile: name, removed: true });
        else out(`Profile "${name}" removed.`);
      }),
    );
}
