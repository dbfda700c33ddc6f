import type { Config } from '../../config/schema';
import { streamArchive, streamBundle, streamRawDiff, type RawDiffType } from '../../git/archive';
import { readCommitMeta } from '../../git/last-commit';
import { resolveCommit } from '../../git/log';
import type { GitStream } from '../../git/stream';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { repoDirOf } from './commits';
import type { RepoAccess } from './repos';

export type Download = {
  filename: string;
  contentType: string;
  commit: string;
  format: string;
  /** When the content last changed (an archive's commit date), for Last-Modified. */
  lastModified?: Date;
  /** Starts git; call only once the response is ready to be written. */
  open: () => GitStream | Promise<GitStream>;
};

const FORMATS: { ext: string; format: 'zip' | 'tar.gz' | 'bundle'; type: string }[] = [
  { ext: '.zip', format: 'zip', type: 'application/zip' },
  { ext: '.tar.gz', format: 'tar.gz', type: 'application/gzip' },
  { ext: '.bundle', format: 'bundle', type: 'application/octet-stream' },
];

/**
 * `<ref>.zip`, `<ref>.tar.gz` (files under `<repo>/`) or `<ref>.bundle` (a git bundle of the
 * commit's history, as Gitea): 400 for another format, 404 when the ref names no commit. The
 * archive streams from git.
 */
export async function openArchive(config: Config, access: RepoAccess, archive: string): Promise<Download> {
  const f = FORMATS.find((x) => archive.endsWith(x.ext));
  if (!f) throw new BadRequestError(`unknown format: ${archive}`);
  const ref = archive.slice(0, -f.ext.length);
  const dir = repoDirOf(config, access);
  const commit = await resolveCommit(dir, ref);
  if (!commit) throw new NotFoundError(`repo ref not found: ${ref}`);
  const name = access.repo.name;
  const meta = await readCommitMeta(dir, commit);
  return {
    filename: `${name}-${ref.replace(/\//g, '-')}${f.ext}`,
    contentType: f.type,
    commit,
    format: f.format,
    lastModified: new Date(meta.committer.date),
    open: () => (f.format === 'bundle' ? streamBundle(dir, commit) : streamArchive(dir, f.format, `${name}/`, commit)),
  };
}

/** A commit's raw diff or patch (text/plain), streamed. */
export async function openCommitDiff(config: Config, access: RepoAccess, sha: string, type: RawDiffType): Promise<Download> {
  const dir = repoDirOf(config, access);
  const commit = await resolveCommit(dir, sha);
  if (!commit) throw new NotFoundError(sha);
  const parent = await resolveCommit(dir, `${commit}^1`);
  return {
    filename: `${commit}.${type}`, contentType: 'text/plain; charset=utf-8', commit, format: type,
    open: () => streamRawDiff(dir, type, commit, parent),
  };
}
