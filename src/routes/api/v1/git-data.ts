import type { Request, Response } from 'express';
import { toApiCommit } from '../../../convert/commit';
import { toApiAnnotatedTag, toApiBlob, toApiRef, toApiTree } from '../../../convert/git-data';
import { repoUrls } from '../../../convert/repo';
import { openArchive } from '../../../services/repo/archive';
import { getAnnotatedTag, getBlob, getNote, getTree, listRefs } from '../../../services/repo/git-data';
import { repoOf } from '../../context';
import { setTotalCount } from '../../pagination';
import { queryBool, queryInt } from '../../query';
import { sendArchive } from '../../stream';
import { pathParam } from '../../table';
import { toggle } from './commits';
import { withVerifications } from '../../../services/signing/commit-verification';

export async function blob(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  res.json(toApiBlob(req.ctx.config, access, await getBlob(req.ctx.config, access, pathParam(req, 'sha'))));
}

export async function tree(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const t = await getTree(req.ctx.config, access, pathParam(req, 'sha'), {
    recursive: queryBool(req, 'recursive') ?? false, page: queryInt(req, 'page') ?? 1, perPage: queryInt(req, 'per_page') ?? 0,
  });
  setTotalCount(res, t.total);
  res.json(toApiTree(req.ctx.config, access, t));
}

/** `/git/refs` and `/git/refs/{ref}`: always a list, as Gitea answers (even for an exact name). */
export async function refs(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const found = await listRefs(req.ctx.config, access, req.params.ref === undefined ? '' : pathParam(req, 'ref'));
  res.json(found.map((r) => toApiRef(req.ctx.config, access, r)));
}

export async function annotatedTag(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  res.json(toApiAnnotatedTag(req.ctx.config, access, await getAnnotatedTag(req.ctx.h, access, pathParam(req, 'sha'))));
}

export async function note(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const want = { files: toggle(req, 'files'), stat: true };
  const verification = toggle(req, 'verification');
  const n = await withVerifications(req.ctx.h, access, await getNote(req.ctx.h, access, pathParam(req, 'sha'), want), verification);
  const commit = toApiCommit(req.ctx.config, access, n.commits[0]!, n.users, req.ctx.doer, { verification, verifications: n.verifications });
  res.json({ message: n.message, commit });
}

/** Streams `git archive`; the Link header names the immutable commit archive (for Nix and friends). */
export const archive = (req: Request, res: Response): Promise<void> => sendRepoArchive(req, res, pathParam(req, 'archive'));

/**
 * Gitea's GitHub-like /tarball/{ref}, /zipball/{ref} and /bundle/{ref} (undocumented there):
 * the archive of `{ref}.tar.gz`, `.zip` or `.bundle`.
 */
export const archiveOf = (ext: 'tar.gz' | 'zip' | 'bundle') => (req: Request, res: Response): Promise<void> =>
  sendRepoArchive(req, res, `${pathParam(req, 'filepath')}.${ext}`);

async function sendRepoArchive(req: Request, res: Response, name: string): Promise<void> {
  const access = repoOf(req);
  const d = await openArchive(req.ctx.config, access, name);
  const { url } = repoUrls(req.ctx.config, access.owner.name, access.repo.name);
  await sendArchive(req, res, d, {
    Link: `<${url}/archive/${d.commit}.${d.format}?rev=${d.commit}>; rel="immutable"`,
    'Cache-Control': 'private, max-age=300',
  });
}
