// `sluice credentials list|create|test|delete`. The data of a new credential is read from a file or standard input,
// never from the command line, where it would stay in the shell's history and the process list.
import type { Command } from 'commander';
import { SluiceError } from '../../errors.js';
import type { Credential } from '../../types.js';
import { action, common, jsonLine, note, out, parseJsonObject, readFile, readStdin, table } from '../io.js';
import { UsageError } from '../exit-codes.js';
import { openSession, type CommonOptions, type Session } from '../session.js';

const TYPES = ['postgres', 'mysql', 'redis', 'amqp', 'mqtt', 'nats', 'smtp', 'http'] as const;

async function resolveCredential(session: Session, nameOrId: string): Promise<Credential> {
  const workspaceId = await session.workspaceId();
  const all = await session.client.credentials.list(workspaceId);
  const found = all.find((c) => c.id === nameOrId) ?? all.find((c) => c.name === nameOrId);
  if (!found) throw new SluiceError({ status: 404, code: 'NOT_FOUND', message: `No credential named "${nameOrId}" in workspace ${workspaceId}` });
  return found;
}

const settings = (c: Credential) =>
  Object.entries(c.fields)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' ');

export function registerCredentials(program: Command): void {
  const credentials = program.command('credentials').description('list, create, test and delete stored credentials');

  common(credentials.command('list'))
    .description('the credentials of the workspace (without their secrets)')
    .action(
      action(async (options: CommonOptions) => {
        const session = openSession(options);
        const list = await session.client.credentials.list(await session.workspaceId());
        if (options.json) return void jsonLine(list);
        if (list.length === 0) return void note('No credentials in this workspace yet.');
        out(
          table([
            ['ID', 'NAME', 'TYPE', 'SETTINGS', 'SECRETS SET'],
            ...list.map((c) => [c.id, c.name, c.type, settings(c) || '-', c.secretsSet.join(',') || '-']),
          ]),
        );
      }),
    );

  common(credentials.command('create'))
    .description('store a credential; its data (a JSON object, fields per type: docs/api.md "Credentials") comes from a file or standard input')
    .argument('<name>', 'the name blocks and exports know it by')
    .requiredOption('--type <type>', TYPES.join(' | '))
    .requiredOption('--data <file>', 'the data as JSON (- for standard input)')
    .action(
      action(async (name: string, options: CommonOptions & { type: string; data: string }) => {
        if (!(TYPES as readonly string[]).includes(options.type)) throw new UsageError(`--type must be one of ${TYPES.join(', ')}`);
        const data = parseJsonObject(options.data === '-' ? readStdin() : readFile(options.data), options.data === '-' ? 'standard input' : options.data);
        const session = openSession(options);
        const created = await session.client.credentials.create({
          workspaceId: await session.workspaceId(),
          name,
          type: options.type as (typeof TYPES)[number],
          data,
        });
        if (options.json) return void jsonLine(created);
        out(`Stored ${created.type} credential "${created.name}" as ${created.id}.`);
      }),
    );

  common(credentials.command('test'))
    .description('open a connection with a credential and print what the server said (exit 1 when it failed)')
    .argument('<credential>', 'id or name')
    .action(
      action(async (nameOrId: string, options: CommonOptions) => {
        const session = openSession(options);
        const credential = await resolveCredential(session, nameOrId);
        const result = await session.client.credentials.test(credential.id);
        if (options.json) jsonLine({ credentialId: credential.id, ...result });
        else out(`${result.ok ? 'ok' : 'failed'}: ${result.message} (${result.durationMs} ms)`);
        return result.ok ? 0 : 1;
      }),
    );

  common(credentials.command('delete'))
    .description('delete a credential (blocks that name it then fail with "not found")')
    .argument('<credential>', 'id or name')
    .action(
      action(async (nameOrId: string, options: CommonOptions) => {
        const session = openSession(options);
        const credential = await resolveCredential(session, nameOrId);
        await session.client.credentials.delete(credential.id);
        if (options.json) jsonLine({ deleted: credential.id });
        else out(`Deleted "${credential.name}" (${credential.id}).`);
      }),
    );
}
