// s3rver ships no types; this covers what the tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Resolves with the bound address, so `port: 0` tells the real port here. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
