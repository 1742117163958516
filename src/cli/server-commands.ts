// The server side of the `sluice` command: serve (HTTP + an in-process worker), worker (jobs only), init and admin
// (offline bootstrap). Configuration comes from the environment. Loaded only when one of them runs (main.ts), so the
// client commands start without the server's modules.
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from '../config.js';
import { createAppWorker } from '../app/worker.js';
import { maintenanceDeps, startMaintenance } from '../app/maintenance.js';
import { createLogger, type Logger } from '../logger.js';
import { findKeyByValue, generateApiKey } from '../services/api-keys.js';
import { createAppContext, type AppContext } from '../app/context.js';
import { setUserPassword } from '../services/sessions.js';
import { setupLink, setupNeeded } from '../services/setup.js';
import { bootstrapAdmin } from '../services/workspaces.js';
import { startHttpServer } from '../server.js';
import { lastServerUrl, publicBaseUrl, recordServerUrl } from './last-server-url.js';
import type { DataDirLock } from './data-dir-lock.js';
import { lockDataDir } from './data-dir.js';
import { handleShutdownSignals, shutdownDeadlineMs, type ShutdownStep } from './shutdown.js';

export function fail(message: string): never {
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
  app.readiness.workerStarted(worker);
  const stopMaintenance = startMaintenance(maintenanceDeps(app, logger));
  logger.info({ workerId: worker.id, concurrency: app.config.worker.concurrency }, 'worker started');
  return async () => {
    stopMaintenance();
    await worker.stop(app.config.worker.shutdownGraceMs);
    // What the process cost the database, for sizing (docs/operations.md "Capacity model"; bench/scale-out.bench.ts).
    logger.info({ workerId: worker.id, ...worker.stats(), statements: app.database.statements() }, 'worker stopped');
  };
}

/**
 * How serve and worker start, up to where they differ: the shutdown handlers first (see shutdown.ts), then the data
 * directory's lock, then the app with its runner.
 */
async function startLongRunning(command: 'serve' | 'worker') {
  // V8 lets the old generation grow to as much as 4× what its last full collection left alive when a program
  // allocates fast, as a server under load does. With ~40 MB alive, `sluice serve` on PGlite then peaked at 409–419 MB
  // under the memory bench's load, most of it garbage waiting for a collection; at 1.5× it peaked at 315–345 MB
  // (bench/REPORT.md memory). Not a limit: a run that keeps more alive grows the heap as far as it needs.
  setFlagsFromString('--heap-growing-percent=50');
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  const onShutdown = handleShutdownSignals(logger, shutdownDeadlineMs(config));
  const lock = await lockDataDir(config, command);
  const app = await createAppContext(config, logger);
  await app.startRunner();
  return { config, logger, onShutdown, lock, app };
}

/** The last step of every shutdown: the app (runner, database, storage), then the data directory's lock. */
function closing(app: AppContext, lock: DataDirLock | undefined): ShutdownStep {
  return {
    name: 'close',
    run: async () => {
      await app.close();
      lock?.release();
    },
  };
}

export async function serveCommand(options: { worker: boolean }) {
  const { config, logger, onShutdown, lock, app } = await startLongRunning('serve');
  // Not ready until the worker runs: the HTTP server starts first, and a probe may come in between.
  if (options.worker) app.readiness.expectWorker();
  const server = await startHttpServer(app, { port: config.port, host: config.host });
  const stopWorker = options.worker ? await startBackgroundWork(app, logger) : undefined;
  onShutdown([
    // Stop taking requests first, so nothing enqueues into a worker that is winding down.
    { name: 'http drain', run: () => server.close() },
    ...(stopWorker ? [{ name: 'worker', run: stopWorker }] : []),
    closing(app, lock),
  ]);
  const url = publicBaseUrl(config, server.url);
  lock?.update({ url });
  recordServerUrl(config.dataDir, url);
  logger.info({ url: server.url, database: app.database.kind, worker: options.worker }, 'Sluice is listening');
  // Not a log line: the link opens the owner account, so it goes to the person at the terminal, not to log storage.
  if (await setupNeeded(app.db)) {
    process.stderr.write(`First run: open ${setupLink(url, app.setupToken)} to create the owner account.\n`);
  }
}

export async function workerCommand() {
  const { logger, onShutdown, lock, app } = await startLongRunning('worker');
  const stopWorker = await startBackgroundWork(app, logger);
  onShutdown([{ name: 'worker', run: stopWorker }, closing(app, lock)]);
}

export async function initCommand(options: { json: boolean }) {
  const config = configOrExit();
  const logger = createLogger(options.json ? 'silent' : config.logLevel);
  const lock = await lockDataDir(config, 'init');
  const app = await createAppContext({ ...config, bootstrapApiKey: undefined }, logger);
  let out: { apiKey: string; userId: string; workspaceId: string } | undefined;
  try {
    const result = await bootstrapAdmin(app.db, {
      apiKey: config.bootstrapApiKey ?? generateApiKey(),
      adminEmail: config.adminEmail,
      plan: config.defaultPlan,
    });
    // Read back what the server will read: a key is printed only once it is stored and usable.
    const stored = await findKeyByValue(app.db, result.apiKey);
    if (stored && !stored.revokedAt) out = { apiKey: result.apiKey, userId: stored.userId, workspaceId: result.workspaceId };
  } finally {
    await app.close();
    lock?.release();
  }
  if (!out) {
    fail(
      config.bootstrapApiKey
        ? 'sluice init: SLUICE_BOOTSTRAP_API_KEY names a key that was revoked; unset it (init then makes a new key) or choose another.'
        : 'sluice init: the new key could not be stored; nothing was printed.',
    );
  }
  if (options.json) process.stdout.write(`${JSON.stringify(out)}\n`);
  else process.stdout.write(`Admin ${config.adminEmail} ready.\nWorkspace: ${out.workspaceId}\nAPI key (shown once): ${out.apiKey}\n`);
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

export async function setPasswordCommand(options: { email: string; passwordStdin?: boolean }) {
  const config = configOrExit();
  let password: string;
  if (options.passwordStdin) password = await readStdin();
  else if (process.stdin.isTTY) {
    password = await promptHidden(`New password for ${options.email}: `);
    if ((await promptHidden('Repeat it: ')) !== password) fail('The passwords do not match.');
  } else fail('No terminal to ask for the password: pass --password-stdin and pipe it in.');
  const lock = await lockDataDir(config, 'admin set-password');
  const app = await createAppContext({ ...config, bootstrapApiKey: undefined }, createLogger('silent'));
  try {
    const result = await setUserPassword(app.db, { email: options.email, password, plan: config.defaultPlan });
    process.stdout.write(
      `${result.created ? 'Created user' : 'Password set for'} ${result.email}; sign in at ${lastServerUrl(config)}/\n`,
    );
  } catch (err) {
    fail(err instanceof Error ? `sluice: ${err.message}` : 'sluice: failed');
  } finally {
    await app.close();
    lock?.release();
  }
}
