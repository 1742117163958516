// The `sluice` command: serve (HTTP + an in-process worker), worker (jobs only), init (offline bootstrap).
// Configuration comes from the environment.
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { createAppWorker } from '../jobs/app-worker.js';
import { startMaintenance } from '../jobs/maintenance.js';
import { createLogger, type Logger } from '../logger.js';
import { generateApiKey } from '../services/api-keys.js';
import { createAppContext, type AppContext } from '../services/app-context.js';
import { setUserPassword } from '../services/sessions.js';
import { bootstrapAdmin } from '../services/workspaces.js';
import { startHttpServer } from '../server.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function configOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

/** Starts the job worker with its housekeeping; the returned function stops both (graceful, SIGTERM). */
async function startBackgroundWork(app: AppContext, logger: Logger) {
  const worker = createAppWorker(app);
  await worker.start();
  const stopMaintenance = startMaintenance(app.db, logger);
  logger.info({ workerId: worker.id, concurrency: app.config.worker.concurrency }, 'worker started');
  return async () => {
    stopMaintenance();
    await worker.stop(app.config.worker.shutdownGraceMs);
    logger.info({ workerId: worker.id }, 'worker stopped');
  };
}

/**
 * Installs the SIGTERM/SIGINT handlers before anything starts: until a handler exists, the signal's default action
 * kills the process on the spot, so a signal arriving during start-up would skip the graceful path. The returned
 * function supplies what to run; a signal that came earlier waits for it.
 */
function handleShutdownSignals(logger: Logger): (shutdown: () => Promise<void>) => void {
  let provide!: (shutdown: () => Promise<void>) => void;
  const ready = new Promise<() => Promise<void>>((resolve) => (provide = resolve));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await (await ready)();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return provide;
}

async function serveCommand(options: { worker: boolean }) {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  const onShutdown = handleShutdownSignals(logger);
  const app = await createAppContext(config, logger);
  const server = await startHttpServer(app, { port: config.port, host: config.host });
  const stopWorker = options.worker ? await startBackgroundWork(app, logger) : undefined;
  onShutdown(async () => {
    // Stop taking requests first, so nothing enqueues into a worker that is winding down.
    await server.close();
    await stopWorker?.();
    await app.close();
  });
  logger.info({ url: server.url, database: app.database.kind, worker: options.worker }, 'Sluice is listening');
}

async function workerCommand() {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  const onShutdown = handleShutdownSignals(logger);
  const app = await createAppContext(config, logger);
  const stopWorker = await startBackgroundWork(app, logger);
  onShutdown(async () => {
    await stopWorker();
    await app.close();
  });
}

async function initCommand(options: { json: boolean }) {
  const config = configOrExit();
  const logger = createLogger(options.json ? 'silent' : config.logLevel);
  const app = await createAppContext({ ...config, bootstrapApiKey: undefined }, logger);
  try {
    const result = await bootstrapAdmin(app.db, {
      apiKey: config.bootstrapApiKey ?? generateApiKey(),
      adminEmail: config.adminEmail,
      plan: config.defaultPlan,
    });
    const out = { apiKey: result.apiKey, userId: result.userId, workspaceId: result.workspaceId };
    if (options.json) process.stdout.write(`${JSON.stringify(out)}\n`);
    else process.stdout.write(`Admin ${config.adminEmail} ready.\nWorkspace: ${out.workspaceId}\nAPI key (shown once): ${out.apiKey}\n`);
  } finally {
    await app.close();
  }
}

/** All of standard input, minus one trailing newline (what `echo pw |` and here-strings add). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    let value = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    input.on('data', onData);
  });
}

async function setPasswordCommand(options: { email: string; passwordStdin?: boolean }) {
  const config = configOrExit();
  let password: string;
  if (options.passwordStdin) password = await readStdin();
  else if (process.stdin.isTTY) {
    password = await promptHidden(`New password for ${options.email}: `);
    if ((await promptHidden('Repeat it: ')) !== password) fail('The passwords do not match.');
  } else fail('No terminal to ask for the password: pass --password-stdin and pipe it in.');
  const app = await createAppContext({ ...config, bootstrapApiKey: undefined }, createLogger('silent'));
  try {
    const result = await setUserPassword(app.db, { email: options.email, password, plan: config.defaultPlan });
    process.stdout.write(
      `${result.created ? 'Created user' : 'Password set for'} ${result.email}; sign in at ${config.baseUrl}/\n`,
    );
  } catch (err) {
    fail(err instanceof Error ? `sluice: ${err.message}` : 'sluice: failed');
  } finally {
    await app.close();
  }
}

const program = new Command('sluice').description('Self-hosted workflow automation');
program
  .command('serve')
  .description('serve the HTTP API, with a background worker unless --no-worker')
  .option('--no-worker', 'do not run background jobs in this process')
  .action(serveCommand);
program
  .command('worker')
  .description('run background jobs only (webhook deliveries, async executions); as many as you like on one PostgreSQL')
  .action(workerCommand);
program
  .command('init')
  .description('provision the admin user, the Default workspace and an API key, offline (stop the server first on PGlite)')
  .option('--json', 'print {"apiKey","userId","workspaceId"} as JSON')
  .action(initCommand);

const admin = program.command('admin').description('administration, offline (stop the server first on PGlite)');
admin
  .command('set-password')
  .description('set the web sign-in password of a user (created, with a Default workspace, if the email is new); ends their sessions')
  .requiredOption('--email <email>', 'the user\'s email')
  .option('--password-stdin', 'read the password from standard input instead of prompting')
  .action(setPasswordCommand);

program.parseAsync(process.argv).catch((err: unknown) => {
  fail(err instanceof Error ? `sluice: ${err.message}` : 'sluice: failed');
});
