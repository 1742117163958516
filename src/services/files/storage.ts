// Where file bytes live. Local disk by default; an S3-compatible backend only has to implement FileStorage.
import type { Readable } from 'node:stream';

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

export interface FileStorage {
  /** Stores the content under `key`; a reader never sees a half-written object. */
  put(key: string, data: FileContent): Promise<void>;
  /** null when nothing is stored under `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; no error when it is already gone. */
  delete(key: string): Promise<void>;
}
