// A stored file's bytes for a run's block (the email block's attachments), found by the UserFile's signed URL: the
// same capability a download needs, checked the same way (services/files/download.ts), so a run reads no file it
// was not handed. Links to other sites are not fetched here.
import type { AppContext } from '../app-context.js';
import { openSignedDownload } from './download.js';

export interface StoredFileContent {
  name: string;
  /** MIME type. */
  type: string;
  content: Buffer;
}

export async function readStoredFile(app: AppContext, url: string, maxBytes: number): Promise<StoredFileContent> {
  const prefix = new URL(`${app.config.baseUrl}/api/files/`);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.origin !== prefix.origin || !parsed.pathname.startsWith(prefix.pathname)) {
    const shown = url.length > 120 ? `${url.slice(0, 120)}…` : url;
    throw new Error(`"${shown}" is not a file stored by this service (only uploaded files can be read)`);
  }
  const download = await openSignedDownload(app, {
    fileId: decodeURIComponent(parsed.pathname.slice(prefix.pathname.length)),
    expires: parsed.searchParams.get('expires') ?? undefined,
    signature: parsed.searchParams.get('signature') ?? undefined,
  });
  if (download.size > maxBytes) {
    download.body.destroy();
    throw new Error(`The file "${download.name}" is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of download.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return { name: download.name, type: download.mime, content: Buffer.concat(chunks) };
}
