// Opening a file through its signed URL. The signature is checked before the database is asked anything, so without
// a valid link nobody learns whether a file id exists (docs/guarantees.md 1: no signed URL reaches another file).
import { eq } from 'drizzle-orm';
import { files } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { AppContext } from '../app-context.js';
import { MIME_PATTERN } from './data-url.js';
import type { StoredObject } from './storage.js';

export interface SignedDownloadRequest {
  fileId: string;
  expires: string | undefined;
  signature: string | undefined;
}

export interface FileDownload extends StoredObject {
  name: string;
  /** Safe to send as Content-Type (checked at upload, and again here in case the row was written elsewhere). */
  mime: string;
}

/** 403 FORBIDDEN for a missing, wrong or expired signature; 404 NOT_FOUND when the file is gone. */
export async function openSignedDownload(app: AppContext, request: SignedDownloadRequest): Promise<FileDownload> {
  const services = app.files;
  const check = services.signer.verify(request.fileId, request.expires, request.signature);
  if (check === 'expired') throw new AppError('FORBIDDEN', 403, 'This download link has expired');
  if (check !== 'valid') throw new AppError('FORBIDDEN', 403, 'This download link is invalid');

  const [row] = await app.db.select().from(files).where(eq(files.id, request.fileId)).limit(1);
  if (!row) throw notFound('File');
  const object = await services.storage.get(row.storageKey);
  if (!object) throw notFound('File');
  return { ...object, name: row.name, mime: MIME_PATTERN.test(row.mime) ? row.mime : 'application/octet-stream' };
}
