import type { DB } from '../../../db/connect';
import type { Repository, User } from '../../../db/schema';
import type { Logger } from '../../../lib/logger';
import { usersByNames } from '../../../models/user-lookup';
import type { BlobStorage } from '../../../lib/blob-storage/storage';
import type { Downloader, SourceUser } from '../downloader';

// What every per-kind importer shares: the target, the source's downloader, the author mapping, and
// the name -> id maps of labels and milestones that issues and pulls are attached by.

export type { SourceUser };

export type Authored = { poster_id: number; original_author: string; original_author_id: number };

export type ImportContext = {
  db: DB;
  repo: Repository;
  owner: User;
  doer: User;
  source: Downloader;
  log: Logger;
  signal: AbortSignal;
  /** The target's bare repository, when the caller gave it (refs/pull/N/head, release commits). */
  gitDir: string | undefined;
  blobs: BlobStorage;
  spoolDir: string;
  authors: AuthorMap;
  labels: Map<string, number>;
  milestones: Map<string, number>;
  /** The items written by this import, by number: where repository-wide comments go. */
  imported: Map<number, { id: number; isPull: boolean; created: number }>;
};

/** ISO time (or null/empty) -> unix seconds, 0 when absent. */
export const unix = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) && t > 0 ? Math.floor(t / 1000) : 0;
};

/**
 * Authors of imported rows (Gitea's remapUser): a source login that exists here (same name, any
 * case) is that user; anyone else is shown as the migrating user with original_author set.
 */
export class AuthorMap {
  private readonly known = new Map<string, number | null>();

  constructor(private readonly db: DB, private readonly doer: User) {}

  /** Looks up the logins of a page at once, so each page costs one query. */
  async prime(users: SourceUser[]): Promise<void> {
    const missing = [...new Set(users.flatMap((u) => (u?.login ? [u.login.toLowerCase()] : [])))].filter((n) => !this.known.has(n));
    if (!missing.length) return;
    const found = await usersByNames(this.db, missing);
    for (const n of missing) this.known.set(n, null);
    for (const u of found) this.known.set(u.lower_name, u.id);
  }

  /** Call after prime() for the same users. */
  of(user: SourceUser): Authored {
    const id = user?.login ? this.known.get(user.login.toLowerCase()) : null;
    if (id) return { poster_id: id, original_author: '', original_author_id: 0 };
    return { poster_id: this.doer.id, original_author: user?.login ?? '', original_author_id: user?.id && user.id > 0 ? user.id : 0 };
  }
}
