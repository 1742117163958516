// Inline files of the execute endpoint (docs/api.md 4.2): decoding, storage, signed download URLs.
export type { UserFile } from './user-file.js';
export type { FileContent, FileStorage, StoredObject } from './storage.js';
export { createLocalStorage } from './local-storage.js';
export { openFileStorage } from './open-storage.js';
export { createUrlSigner, type UrlCheck, type UrlSigner } from './url-signer.js';
export {
  createFileServices,
  DEFAULT_URL_TTL_MS,
  MAX_INLINE_FILE_BYTES,
  type FileServices,
  type FileServicesOptions,
} from './file-services.js';
export { storeFileInputs, type StoreFileInputsRequest } from './store-file-inputs.js';
export { checkFileInputs, type CheckedFileInput, type FileInput } from './file-input.js';
export { openSignedDownload, type FileDownload, type SignedDownloadRequest } from './download.js';
export { attachmentDisposition } from './content-disposition.js';
export { parseJsonBytes, type JsonBytesOptions } from './json-bytes.js';
