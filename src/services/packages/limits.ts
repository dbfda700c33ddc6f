import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { ownerUsage } from '../../models/package';
import type { Hearth } from '../../hearth';

// Gitea's [packages] LIMIT_* settings (services/packages/packages.go): site admins are exempt.
// Gitea's registries answer a quota error with 403 (generic, npm, ...), so this error is a 403.

export class PackageQuotaError extends AppError {
  constructor(message: string) { super(403, message); }
}
export const QUOTA = {
  typeSize: 'maximum allowed package type size exceeded',
  totalSize: 'maximum allowed package storage quota exceeded',
  totalCount: 'maximum allowed package count exceeded',
};

const UNITS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18, ki: 2 ** 10, mi: 2 ** 20, gi: 2 ** 30, ti: 2 ** 40, pi: 2 ** 50, ei: 2 ** 60 };

/** A config size (bytes, or "500 MB" / "1 GiB" as go-humanize's ParseBytes) in bytes; -1: no limit. */
export function parseByteSize(v: number | string): number {
  if (typeof v === 'number') return v;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]i?)?b?\s*$/i.exec(v);
  if (!m) return -1;
  return Math.floor(Number(m[1]) * (UNITS[(m[2] ?? '').toLowerCase()] ?? 1));
}

/** The largest file of a package type (-1: no limit); types without a setting have none. */
export function typeSizeLimit(config: Config, type: string): number {
  const key = `limit_size_${type}` as keyof Config['packages'];
  const v = config.packages[key];
  return typeof v === 'number' || typeof v === 'string' ? parseByteSize(v) : -1;
}

/** The per-type limit for a streaming upload (storeBlob's maxSize): -1 for site admins. */
export const uploadSizeLimit = (config: Config, doer: User | null, type: string) => (doer?.is_admin ? -1 : typeSizeLimit(config, type));

/** Gitea's CheckSizeQuotaExceeded: one file's size against the type's and the owner's limit. */
export async function checkSizeQuota(h: Hearth, doer: User | null, owner: User, type: string, size: number): Promise<void> {
  if (doer?.is_admin) return;
  const typeLimit = typeSizeLimit(h.config, type);
  if (typeLimit > -1 && size > typeLimit) throw new PackageQuotaError(QUOTA.typeSize);
  const total = parseByteSize(h.config.packages.limit_total_owner_size);
  if (total > -1 && (await ownerUsage(h.db, owner.id)).bytes + size > total) throw new PackageQuotaError(QUOTA.totalSize);
}

/** Gitea's checkCountQuotaExceeded: before a new version. */
export async function checkCountQuota(h: Hearth, doer: User | null, owner: User): Promise<void> {
  if (doer?.is_admin) return;
  const limit = h.config.packages.limit_total_owner_count;
  if (limit > -1 && (await ownerUsage(h.db, owner.id)).versions >= limit) throw new PackageQuotaError(QUOTA.totalCount);
}
