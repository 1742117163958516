// Everything a request handler or worker needs, opened once per process.
import type { BlockServices } from '../blocks/types.js';
import type { Config } from '../config.js';
import { openDatabase, pgliteDataDir, type Database, type Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import { createCipher, type Cipher } from './crypto.js';
import { createFileServices, type FileServices } from './files/file-services.js';
import { loadOrCreateSecret } from './secret.js';
import { bootstrapAdmin } from './workspaces.js';

export interface AppContext {
  config: Config;
  db: Db;
  database: Database;
  logger: Logger;
  cipher: Cipher;
  blockServices: BlockServices;
  files: FileServices;
  close(): Promise<void>;
}

export async function createAppContext(config: Config, logger: Logger, database?: Database): Promise<AppContext> {
  const secret = config.secret ?? loadOrCreateSecret(config.dataDir);
  const db =
    database ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: pgliteDataDir(config.dataDir) },
    ));
  if (config.bootstrapApiKey) {
    const result = await bootstrapAdmin(db.db, {
      apiKey: config.bootstrapApiKey,
      adminEmail: config.adminEmail,
      plan: config.defaultPlan,
    });
    if (result.created) logger.info({ userId: result.userId, workspaceId: result.workspaceId }, 'bootstrap admin and key provisioned');
  }
  return {
    config,
    db: db.db,
    database: db,
    logger,
    cipher: createCipher(secret),
    files: createFileServices({ dataDir: config.dataDir, secret, urlTtlMs: config.fileUrlTtlMs }),
    blockServices: {
      allowPrivateNetwork: config.allowPrivateNetwork,
      sandbox: { memoryLimitBytes: 64 * 1024 * 1024, timeoutMs: 5_000 },
      providerEnv: (name) => config.providerEnv[name],
    },
    close: () => db.close(),
  };
}
