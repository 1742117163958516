// Where file bytes live: the local disk (local-storage.ts, the default) or an S3-compatible bucket (s3-storage.ts),
// chosen by SLUICE_FILES_BACKEND (open-storage.ts).
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';

/**
 * The bytes to store: one buffer, or chunks (so a large decode never needs one full-size buffer). A chunk may be
 * reused for the next one, so an implementation writes or copies each chunk before pulling the next.
 */
export type FileContent = Buffer | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

export interface StoredObject {
  size: number;
  /** Streamed, so a download never holds the whole file in memory. The consumer must read or destroy it. */
  body: Readable;
}

export interface PutOptions {
  /**
   * Ends the write when aborted (the caller's deadline), and makes it one attempt: a retry would only spend the
   * caller's time. An aborted write may still have been stored (its request had reached the server): the caller
   * deletes the key.
   */
  signal?: AbortSignal;
}

export interface FileStorage {
  /**
   * Stores `size` bytes of content under `key`; a reader never sees a half-written object. The size is known before
   * the first byte (decoded size of a data URL), so S3 can take the content as one streamed PUT; content of another
   * length is refused and nothing is stored.
   */
  put(key: string, data: FileContent, size: number, options?: PutOptions): Promise<void>;
  /** null when nothing is stored under `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Releases connections (S3's keep-alive sockets); the storage is not used afterwards. */
  close?(): void;
}

/**
 * What a backend throws when it cannot be read or written (unreachable, refusing, an I/O error): the client sees a clear
 * 503, and the log keeps the backend's own error as the cause.
 */
export function storageUnavailable(err: unknown): AppError {
  const error = new AppError('FILE_STORAGE_UNAVAILABLE', 503, 'File storage is unavailable; try again later');
  return Object.assign(error, { cause: err });
}
