import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { deleteRef, updateRef } from '../../git/commit';
import { createAnnotatedTag, getTag as readTag, isValidTagName, listTags as readTags, refTarget, type TagInfo } from '../../git/refs';
import { repoDir, revParse, zeroId } from '../../git/repo';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { assertTagHasNoRelease, forgetDeletedTag } from '../release/releases';
import type { RepoAccess } from './repos';
import { assertMayControlTag } from './tag-protection';
import { refsMoved } from './refs-moved';
import type { Hearth } from '../../hearth';

const dirOf = (config: Config, a: RepoAccess) => repoDir(config.repository.root, a.owner.name, a.repo.name);

export async function listTags(config: Config, access: RepoAccess, page: { offset: number; limit: number }): Promise<{ items: TagInfo[]; total: number }> {
  if (access.repo.is_empty) return { items: [], total: 0 };
  const all = await readTags(dirOf(config, access));
  return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

export async function getTag(config: Config, access: RepoAccess, name: string): Promise<TagInfo> {
  const tag = name ? await readTag(dirOf(config, access), name) : null;
  if (!tag) throw new NotFoundError(`tag doesn't exist: ${name}`);
  return tag;
}

export type CreateTagInput = { name: string; target?: string; message?: string };

/** A message makes an annotated tag signed by the doer, as Gitea; without one the tag is lightweight. */
export async function createTag(h: Hearth, access: RepoAccess, doer: User, input: CreateTagInput): Promise<TagInfo> {
  if (!(await isValidTagName(input.name))) throw new InvalidError('[tag_name]: invalid tag name', 'tag_name');
  const dir = dirOf(h.config, access);
  const target = input.target || access.repo.default_branch;
  const commit = target.startsWith('-') ? null : await revParse(dir, `${target}^{commit}`);
  if (!commit) throw new NotFoundError(`target not found: ${target}`);
  const ref = `refs/tags/${input.name}`;
  if (await refTarget(dir, ref)) throw new ConflictError(`tag already exists [name: ${input.name}]`);
  await assertMayControlTag(h.db, access, doer, input.name, 'create');
  const tagger = { name: doer.full_name || doer.name, email: doer.email };
  const created = input.message
    ? await createAnnotatedTag(dir, input.name, commit, input.message, tagger)
    : await updateRef(dir, ref, commit, null, zeroId(access.repo.object_format_name));
  if (!created) throw new ConflictError(`tag already exists [name: ${input.name}]`);
  await refsMoved(h.db, access.repo, doer, dir, [{ ref, oldId: zeroId(access.repo.object_format_name), newId: (await refTarget(dir, ref)) ?? commit }], 'tag');
  return getTag(h.config, access, input.name);
}

export async function deleteTag(h: Hearth, access: RepoAccess, doer: User, name: string): Promise<void> {
  const dir = dirOf(h.config, access);
  const ref = `refs/tags/${name}`;
  const id = name ? await refTarget(dir, ref) : null;
  if (!id) throw new NotFoundError();
  await assertTagHasNoRelease(h.db, access.repo.id, name);
  await assertMayControlTag(h.db, access, doer, name, 'delete');
  await deleteRef(dir, ref, id);
  await forgetDeletedTag(h.db, access.repo.id, name);
  await refsMoved(h.db, access.repo, doer, dir, [{ ref, oldId: id, newId: zeroId(access.repo.object_format_name) }], 'tag');
}
