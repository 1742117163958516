// The FileStorage that SLUICE_FILES_BACKEND names. The S3 backend is loaded only when chosen: the AWS SDK is large,
// and a process on the local disk has no use for it.
import { join } from 'node:path';
import type { FilesConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { createLocalStorage } from './local-storage.js';
import type { FileStorage } from './storage.js';

export async function openFileStorage(config: FilesConfig, dataDir: string, logger?: Logger): Promise<FileStorage> {
  if (config.backend === 'local') return createLocalStorage(join(dataDir, 'files'));
  const { createS3Storage } = await import('./s3-storage.js');
  return createS3Storage(config.s3, logger);
}
