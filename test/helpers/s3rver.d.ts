// The part of s3rver (an S3-compatible test server, which ships no types) the tests use.
declare module 's3rver' {
  type Options = {
    port?: number; address?: string; silent?: boolean; directory: string;
    configureBuckets?: { name: string; configs: unknown[] }[];
  };
  export default class S3rver {
    constructor(opts: Options);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
