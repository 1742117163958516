// The `sluice` command. Server commands (serve, worker, init, admin) live in server-commands.ts and load only when
// run; the commands that talk to a running server (login, workflows, run, logs) are the client package's.
import { Command } from 'commander';
import { registerClientCommands } from '../../clients/typescript/src/cli/commands.js';
import { useScriptExitCodes } from '../../clients/typescript/src/cli/program.js';

const server = () => import('./server-commands.js');

const program = useScriptExitCodes(new Command('sluice').description('Self-hosted workflow automation'));
program
  .command('serve')
  .description('serve the HTTP API, with a background worker unless --no-worker')
  .option('--no-worker', 'do not run background jobs in this process')
  .action(async (options: { worker: boolean }) => (await server()).serveCommand(options));
program
  .command('worker')
  .description('run background jobs only (webhook deliveries, async executions); as many as you like on one PostgreSQL')
  .action(async () => (await server()).workerCommand());
program
  .command('init')
  .description('provision the admin user, the Default workspace and an API key, offline (on PGlite: refused while a server runs)')
  .option('--json', 'print {"apiKey","userId","workspaceId"} as JSON')
  .action(async (options: { json: boolean }) => (await server()).initCommand(options));

const admin = program.command('admin').description('administration, offline (on PGlite: refused while a server runs)');
admin
  .command('set-password')
  .description('set the web sign-in password of a user (created, with a Default workspace, if the email is new); ends their sessions')
  .requiredOption('--email <email>', 'the user\'s email')
  .option('--password-stdin', 'read the password from standard input instead of prompting')
  .action(async (options: { email: string; passwordStdin?: boolean }) => (await server()).setPasswordCommand(options));

// The commands that talk to a server (login, workflows, run, logs) come from the client package.
registerClientCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? `sluice: ${err.message}` : 'sluice: failed'}\n`);
  process.exit(1);
});
