import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// An S3-compatible server for the tests (s3rver, from the npm registry): started on a loopback
// port over a temp directory, one bucket made. HEARTH_TEST_STORAGE=s3 makes every
// startTestServer keep its blobs in one of these (the S3 pass of .ci/run over test/s3-pass.txt).

export type TestS3 = {
  endpoint: string; bucket: string;
  /** HEARTH__STORAGE__* variables pointing a server at this bucket, under `prefix`. */
  env: (prefix?: string) => Record<string, string>;
  /** The object names in the bucket (the files s3rver keeps them in). */
  stop: () => Promise<void>;
};

export const s3Pass = () => process.env.HEARTH_TEST_STORAGE === 's3';

export async function startTestS3(bucket = 'hearth'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-s3-'));
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint, bucket,
    env: (prefix = '') => ({
      HEARTH__STORAGE__TYPE: 's3', HEARTH__STORAGE__ENDPOINT: endpoint, HEARTH__STORAGE__BUCKET: bucket,
      // s3rver's fixed credentials.
      HEARTH__STORAGE__ACCESS_KEY_ID: 'S3RVER', HEARTH__STORAGE__SECRET_ACCESS_KEY: 'S3RVER',
      HEARTH__STORAGE__PATH_STYLE: 'true', HEARTH__STORAGE__PREFIX: prefix,
    }),
    stop: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
