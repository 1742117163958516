// The parts of s3rver (a real S3-protocol server on the local disk, test-only) that test/support/s3-server.ts uses.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    httpServer?: Server;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Each S3 event (s3rver is a Koa app, which emits them), e.g. `ObjectCreated:Put` with the object's key. */
    on(event: 'event', listener: (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => void): this;
  }
}
