import type { Config } from '../../config/schema';
import type { BlobStorage, SignedUrlOptions } from './storage';

// [storage] serve_direct (Gitea's SERVE_DIRECT): downloads go to a short-lived presigned URL of
// the bucket instead of through the node. Local disk has no such URL: the key is ignored there.

/** How long a presigned URL of serve_direct works (Gitea presigns for 5 minutes too). */
export const DIRECT_URL_SECONDS = 300;

/** The presigned URL a download may be sent to, when serve_direct is on and the store is a bucket; else null. */
export async function directUrl(config: Config, store: BlobStorage, key: string, opts: Omit<SignedUrlOptions, 'expiresSec'> = {}): Promise<string | null> {
  if (!config.storage.serve_direct || store.kind !== 's3') return null;
  return store.signedUrl(key, { expiresSec: DIRECT_URL_SECONDS, ...opts });
}
