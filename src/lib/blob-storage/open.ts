import path from 'node:path';
import type { Config } from '../../config/schema';
import { LocalBlobStorage } from './local';
import type { BlobStorage } from './storage';

// The store [storage] names. Uploads spool under <data_dir>/packages/tmp: on local disk that is
// the same file system as the objects (the final rename is atomic) and where the package
// clean-up has always removed what a crash left; for a bucket it is node-local scratch space.

export const spoolDir = (dataDir: string) => path.join(dataDir, 'packages', 'tmp');

export async function openBlobStorage(config: Config): Promise<BlobStorage> {
  const dataDir = config.server.data_dir;
  const s = config.storage;
  if (s.type === 'local') return new LocalBlobStorage(dataDir, spoolDir(dataDir));
  // Only here: the SDK's modules stay off the start of every instance that keeps files on disk.
  const { S3BlobStorage } = await import('./s3');
  return new S3BlobStorage({
    endpoint: s.endpoint, bucket: s.bucket, region: s.region, accessKeyId: s.access_key_id,
    secretAccessKey: s.secret_access_key, pathStyle: s.path_style, prefix: s.prefix,
  }, spoolDir(dataDir));
}
