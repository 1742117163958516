// The file input object of a `files` field (docs/api.md 4.2), checked in full before anything is stored,
// so a request with one bad file stores none of its files.
import { z } from 'zod';
import { storableString } from '../../db/storable.js';
import { AppError, type ErrorDetail } from '../../errors.js';
import { zodDetails } from '../../errors.js';
import { formatByteLimit } from '../../byte-limit.js';
import { checkDataUrl, MIME_PATTERN, type DataUrl } from './data-url.js';

const MAX_URL_LENGTH = 8192;

const fileInputSchema = z.object({
  type: z.enum(['file', 'url']),
  data: z.string(),
  // Stored in its own column and shown as the download's name: refused, not altered.
  name: storableString.min(1, 'must not be empty').max(255),
  mime: z.string().max(255).regex(MIME_PATTERN, 'must be a MIME type such as application/pdf').optional(),
});

const fileInputsSchema = z.array(fileInputSchema, 'must be an array of file objects');

export type FileInput = z.infer<typeof fileInputSchema>;

export type CheckedFileInput =
  | { type: 'file'; input: FileInput; dataUrl: DataUrl; path: string }
  | { type: 'url'; input: FileInput; url: string; path: string };

/**
 * 400 VALIDATION_ERROR listing every malformed item (paths like `docs.0.data`); then 413 FILE_TOO_LARGE when a file
 * decodes to more than `maxFileBytes`.
 */
export function checkFileInputs(fieldName: string, value: unknown, maxFileBytes: number): CheckedFileInput[] {
  const parsed = fileInputsSchema.safeParse(value);
  if (!parsed.success) throw invalidFiles(zodDetails(parsed.error, fieldName));

  const problems: ErrorDetail[] = [];
  const checked: CheckedFileInput[] = [];
  for (const [index, input] of parsed.data.entries()) {
    const path = `${fieldName}.${index}`;
    if (input.type === 'url') {
      if (isHttpUrl(input.data)) checked.push({ type: 'url', input, url: input.data, path });
      else problems.push({ path: `${path}.data`, message: 'must be an http(s) URL' });
      continue;
    }
    const result = checkDataUrl(input.data);
    if (result.ok) checked.push({ type: 'file', input, dataUrl: result.dataUrl, path });
    else problems.push({ path: `${path}.data`, message: result.message });
  }
  if (problems.length > 0) throw invalidFiles(problems);

  const tooLarge = checked.filter((item) => item.type === 'file' && item.dataUrl.decodedSize > maxFileBytes);
  if (tooLarge.length > 0) {
    throw new AppError(
      'FILE_TOO_LARGE',
      413,
      `A file is larger than ${formatByteLimit(maxFileBytes)}`,
      tooLarge.map((item) => ({
        path: `${item.path}.data`,
        message: `decodes to more than ${formatByteLimit(maxFileBytes)}`,
      })),
    );
  }
  return checked;
}

function invalidFiles(details: ErrorDetail[]): AppError {
  return new AppError('VALIDATION_ERROR', 400, 'Invalid file input', details);
}

function isHttpUrl(text: string): boolean {
  if (text.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
