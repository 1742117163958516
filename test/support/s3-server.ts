// A real S3-protocol server on loopback for the S3 file backend's tests: s3rver, keeping its objects in a temporary
// directory. Tests talk to it over HTTP with the AWS SDK, exactly as the app does; `objects` is a second, independent
// client for looking into the bucket (what landed where) and changing it behind the app's back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver checks request signatures against this fixed key pair. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The variables that point the app's S3 backend at this server, under `prefix`. */
  env(prefix?: string): Record<string, string>;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  /** Every key an object was stored under since the server started (deleted since or not), in order. */
  created(): string[];
  read(key: string): Promise<Buffer>;
  /** Stores `body` under `key`, replacing what is there. */
  write(key: string, body: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'sluice-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'sluice-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const created: string[] = [];
  server.on('event', (event) => {
    for (const record of event.Records) if (record.eventName.startsWith('ObjectCreated')) created.push(record.s3.object.key);
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    bucket,
    env: (prefix = '') => ({
      SLUICE_FILES_BACKEND: 's3',
      SLUICE_S3_BUCKET: bucket,
      SLUICE_S3_PREFIX: prefix,
      SLUICE_S3_ENDPOINT: endpoint,
      SLUICE_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
    }),
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    created: () => [...created],
    async read(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async write(key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async close() {
      client.destroy();
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
