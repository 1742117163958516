// The `sluice` command: serve (HTTP), init (offline bootstrap). Configuration comes from the environment.
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { generateApiKey } from '../services/api-keys.js';
import { createAppContext } from '../services/app-context.js';
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

async function serveCommand(options: { worker: boolean }) {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  const app = await createAppContext(config, logger);
  const server = await startHttpServer(app, { port: config.port, host: config.host });
  logger.info({ url: server.url, database: app.database.kind, worker: options.worker }, 'Sluice is listening');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await server.close();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
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

const program = new Command('sluice').description('Self-hosted workflow automation');
program
  .command('serve')
  .description('serve the HTTP API')
  .option('--no-worker', 'do not run background jobs in this process')
  .action(serveCommand);
program
  .command('init')
  .description('provision the admin user, the Default workspace and an API key, offline (stop the server first on PGlite)')
  .option('--json', 'print {"apiKey","userId","workspaceId"} as JSON')
  .action(initCommand);

program.parseAsync(process.argv).catch((err: unknown) => {
  fail(err instanceof Error ? `sluice: ${err.message}` : 'sluice: failed');
});
