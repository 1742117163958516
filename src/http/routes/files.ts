// GET /api/files/{fileId}?expires&signature — downloads an uploaded file (docs/api.md 4.2). No API key: the signature
// is the capability. Always an attachment with nosniff and a sandboxing CSP, so an uploaded HTML or SVG file can never
// run as a page of this origin.
import { Readable } from 'node:stream';
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { attachmentDisposition, openSignedDownload } from '../../services/files/index.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';

/** Read one parameter at a time below; the schema describes them. */
const signedUrlQuery = z.object({
  expires: z.string().describe('Expiry of the signed URL, as issued'),
  signature: z.string().describe('Signature of the signed URL, as issued'),
});

const download = operation({
  method: 'get',
  path: '/{fileId}',
  summary: 'Download an uploaded file through its signed URL (403 when the link is invalid or expired)',
  auth: 'none',
  query: signedUrlQuery,
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  errors: [403, 503],
});

export const fileRoutes = new OpenAPIHono<AppEnv>().openapi(download, async (c) => {
  const file = await openSignedDownload(c.get('app'), {
    fileId: c.req.param('fileId'),
    expires: c.req.query('expires'),
    signature: c.req.query('signature'),
  });
  const headers = {
    'Content-Type': file.mime,
    'Content-Length': String(file.size),
    'Content-Disposition': attachmentDisposition(file.name),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    // A signed URL is a bearer capability: keep it out of shared caches and of Referer headers.
    'Cache-Control': 'private, no-store',
    'Referrer-Policy': 'no-referrer',
  };
  if (c.req.method === 'HEAD') {
    // Hono answers HEAD with the GET route; the file is then never read, so close it now rather than on GC.
    file.body.destroy();
    return c.body(null, 200, headers);
  }
  return c.body(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, 200, headers);
});
