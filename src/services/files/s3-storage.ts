// FileStorage on an S3-compatible bucket (AWS S3, MinIO, …), one object per file under `<prefix>/<key>`.
// Uploads are one streamed PUT of a known length: the decoded size of a file is known before its first byte, and inline
// files are at most 20 MB (S3 takes up to 5 GB in one PUT), so no multipart upload and no part buffers are needed.
// Downloads stream the GET response straight through.
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { storageUnavailable, type FileStorage } from './storage.js';
import { checkStorageKey, sizeMismatch } from './storage-key.js';
import { streamedBody } from './streamed-body.js';

/** A server that accepts no TCP connection in this long is treated as down, not waited for. */
const CONNECT_TIMEOUT_MS = 5_000;
/** A request whose socket stays silent this long (a stalled upload or download) fails instead of hanging. */
const SOCKET_IDLE_TIMEOUT_MS = 60_000;

export function createS3Storage(config: S3Config, logger?: Logger): FileStorage {
  const clientConfig = {
    logger: sdkLogger(logger),
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    requestChecksumCalculation: config.checksumCalculation,
    responseChecksumValidation: config.checksumCalculation,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: SOCKET_IDLE_TIMEOUT_MS },
  };
  const client = new S3Client(clientConfig);
  // For writes under a caller's deadline (PutOptions.signal): one attempt. The SDK sets retries per client, not per
  // request; this one is made on first use (most installations never need it).
  let onceClient: S3Client | undefined;
  const once = () => (onceClient ??= new S3Client({ ...clientConfig, maxAttempts: 1 }));
  const Bucket = config.bucket;
  const objectKey = (key: string) => (config.prefix ? `${config.prefix}/${checkStorageKey(key)}` : checkStorageKey(key));

  return {
    async put(key, data, size, options = {}) {
      const Key = objectKey(key);
      const { signal } = options;
      const sender = signal ? once() : client;
      if (Buffer.isBuffer(data)) {
        if (data.length !== size) throw sizeMismatch(size, data.length);
        await send(() => sender.send(new PutObjectCommand({ Bucket, Key, Body: data, ContentLength: size }), { abortSignal: signal }));
        return;
      }
      // A failing source (or one of the wrong length) must end the request: the SDK pipes the body but would not
      // notice the source's error, and the server would wait for the missing bytes.
      const abort = new AbortController();
      let sourceError: Error | undefined;
      const body = streamedBody(data, size, (err) => {
        sourceError = err;
        abort.abort(err);
      });
      try {
        await sender.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentLength: size }), {
          abortSignal: signal ? AbortSignal.any([abort.signal, signal]) : abort.signal,
        });
      } catch (err) {
        // The request was cut short of its Content-Length, which S3 refuses to store.
        throw sourceError ?? storageUnavailable(err);
      } finally {
        body.destroy();
      }
    },
    async get(key) {
      const Key = objectKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key }));
        return { size: object.ContentLength ?? 0, body: object.Body as Readable };
      } catch (err) {
        if (isMissing(err)) return null;
        throw storageUnavailable(err);
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      // S3 answers a delete of a missing key with success, so "already gone" needs no special case.
      await send(() => client.send(new DeleteObjectCommand({ Bucket, Key })));
    },
    close() {
      client.destroy();
      onceClient?.destroy();
    },
  };
}

/**
 * The SDK writes its warnings to the console unless given a logger. Only warnings and errors are kept (as messages:
 * the SDK's info lines carry request inputs); a failed request also surfaces as the error the caller logs.
 */
function sdkLogger(logger: Logger | undefined) {
  const ignore = () => undefined;
  const log = (level: 'warn' | 'error') => (...content: unknown[]) =>
    logger?.[level]({ component: 's3' }, content.map((part) => (typeof part === 'string' ? part : '')).join(' ').trim());
  return { trace: ignore, debug: ignore, info: ignore, warn: log('warn'), error: log('error') };
}

async function send<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw storageUnavailable(err);
  }
}

function isMissing(err: unknown): boolean {
  // A missing bucket is a configuration fault, not a missing file.
  if (!(err instanceof S3ServiceException) || err.name === 'NoSuchBucket') return false;
  return err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404;
}
