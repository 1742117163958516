// What the file code needs from the process: where bytes go, how URLs are signed, and the limits.
import { join } from 'node:path';
import { createLocalStorage } from './local-storage.js';
import type { FileStorage } from './storage.js';
import { createUrlSigner, type UrlSigner } from './url-signer.js';

/** docs/api.md 4.2: 20 MB per inline file, counted in decoded bytes. */
export const MAX_INLINE_FILE_BYTES = 20 * 1024 * 1024;
/** docs/api.md 4.2: a signed URL expires one hour after upload unless configured otherwise. */
export const DEFAULT_URL_TTL_MS = 60 * 60 * 1000;

export interface FileServices {
  storage: FileStorage;
  signer: UrlSigner;
  /** How long a signed download URL stays valid after upload. */
  urlTtlMs: number;
  maxFileBytes: number;
}

export interface FileServicesOptions {
  dataDir: string;
  secret: string;
  urlTtlMs?: number;
  maxFileBytes?: number;
  /** Defaults to the local disk under <dataDir>/files. */
  storage?: FileStorage;
}

export function createFileServices(options: FileServicesOptions): FileServices {
  return {
    storage: options.storage ?? createLocalStorage(join(options.dataDir, 'files')),
    signer: createUrlSigner(options.secret),
    urlTtlMs: options.urlTtlMs ?? DEFAULT_URL_TTL_MS,
    maxFileBytes: options.maxFileBytes ?? MAX_INLINE_FILE_BYTES,
  };
}
