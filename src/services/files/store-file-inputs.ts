// Turns the value of a `files` field into UserFile objects (docs/api.md 4.2): inline files are
// decoded straight to storage, recorded in the `files` table and given a signed URL; `url` files pass through.
import { files } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { AppContext } from '../app-context.js';
import { decodeDataUrl } from './data-url.js';
import { checkFileInputs, type CheckedFileInput } from './file-input.js';
import type { FileServices } from './file-services.js';
import type { UserFile } from './user-file.js';

export interface StoreFileInputsRequest {
  workspaceId: string;
  /** Prefixes error paths (`docs.0.data`). */
  fieldName: string;
  value: unknown;
  /** Recorded on the file rows when the execution id is already known. */
  executionId?: string;
}

/**
 * Validates and stores every item of a `files` field. Errors: 400 VALIDATION_ERROR with details (nothing stored),
 * 413 FILE_TOO_LARGE (over 20 MB decoded).
 */
export async function storeFileInputs(app: AppContext, request: StoreFileInputsRequest): Promise<UserFile[]> {
  const services = app.files;
  const checked = checkFileInputs(request.fieldName, request.value, services.maxFileBytes);
  const stored: UserFile[] = [];
  // One at a time: only one file's decoded slices are in memory at any moment.
  for (const item of checked) {
    stored.push(item.type === 'url' ? passThrough(item) : await storeInlineFile(app, services, request, item));
  }
  return stored;
}

function passThrough(item: Extract<CheckedFileInput, { type: 'url' }>): UserFile {
  return { url: item.url, name: item.input.name, size: null, type: item.input.mime ?? 'application/octet-stream' };
}

async function storeInlineFile(
  app: AppContext,
  services: FileServices,
  request: StoreFileInputsRequest,
  item: Extract<CheckedFileInput, { type: 'file' }>,
): Promise<UserFile> {
  const id = newId('file');
  const storageKey = `${request.workspaceId}/${id}`;
  const mime = item.input.mime ?? item.dataUrl.mime ?? 'application/octet-stream';
  await services.storage.put(storageKey, decodeDataUrl(item.input.data, item.dataUrl), item.dataUrl.decodedSize);
  // The service's clock, not the database's: expiry is checked against this clock too.
  const uploadedAt = new Date();
  try {
    await app.db.insert(files).values({
      id,
      workspaceId: request.workspaceId,
      executionId: request.executionId ?? null,
      name: item.input.name,
      mime,
      size: item.dataUrl.decodedSize,
      storageKey,
      createdAt: uploadedAt,
    });
  } catch (err) {
    // Bytes without a row could never be downloaded or cleaned up by id.
    await services.storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  const expiresAt = new Date(uploadedAt.getTime() + services.urlTtlMs);
  return {
    url: services.signer.signedUrl(app.config.baseUrl, id, expiresAt.getTime()),
    name: item.input.name,
    size: item.dataUrl.decodedSize,
    type: mime,
    uploadedAt: uploadedAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}
