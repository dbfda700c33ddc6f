import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { getUserById } from '../../../models/user';
import { ACCESS } from '../../permissions';
import { packageAccessMode } from '../access';
import { getPackage } from '../queries';
import { OCI } from './errors';
import type { ImageRef } from './blobs';
import { allImages, tagsOf, TYPE } from '../../../models/package-container';

// Tag lists and the catalog (Gitea's GetTagsList and GetRepositoryList): sorted names, `n` at
// most, after `last`.

export async function listTags(db: DB, ref: ImageRef, n: number, last: string): Promise<string[]> {
  const pkg = await getPackage(db, ref.owner, TYPE, ref.image).catch(() => { throw OCI.nameUnknown(); });
  return tagsOf(db, pkg.id, last, n);
}

/** The `owner/image` names the caller may read, sorted, paged as the tag list. */
export async function listCatalog(db: DB, doer: User | null, n: number, last: string): Promise<string[]> {
  const out: string[] = [];
  const modes = new Map<number, boolean>();
  for (const row of await allImages(db, last)) {
    if (!modes.has(row.owner_id)) {
      const owner = await getUserById(db, row.owner_id);
      modes.set(row.owner_id, !!owner && (await packageAccessMode(db, owner, doer)) >= ACCESS.read);
    }
    if (modes.get(row.owner_id)) out.push(`${row.owner}/${row.image}`);
    if (n > 0 && out.length >= n) break;
  }
  return out;
}
