/** The `s3rver` package ships no types: the parts tests/server/helpers/s3.ts uses. */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    /** 0: a free port. */
    port?: number;
    silent?: boolean;
    /** Where the buckets' objects are kept. */
    directory: string;
    /** Buckets created when the server starts. */
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
