// Packagist's update-package call, as Gitea's services/webhook/packagist.go makes it.

import type { HookMeta } from './types';

export interface PackagistPayload {
  repository: { url: string };
}

/**
 * The same body for every event: Packagist only needs to know which package to re-crawl.
 * The hook URL (https://packagist.org/api/update-package?username=…&apiToken=…) carries the credentials.
 */
export function packagistPayload(meta: HookMeta): PackagistPayload {
  return { repository: { url: meta.package_url ?? '' } };
}
