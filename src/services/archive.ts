import type { Config } from '../config/schema';
import { streamArchive, streamRawDiff, type ArchiveFormat, type RawDiffType } from '../git/archive';
import { resolveCommit } from '../git/log';
import type { GitStream } from '../git/stream';
import { BadRequestError, NotFoundError } from '../lib/errors';
import { repoDirOf } from './commits';
import type { RepoAccess } from './repos';

export type Download = {
  filename: string;
  contentType: string;
  commit: string;
  format: string;
  /** Starts git; call only once the response is ready to be written. */
  open: () => GitStream;
};

const FORMATS: { ext: string; format: ArchiveFormat; type: string }[] = [
  { ext: '.zip', format: 'zip', type: 'application/zip' },
  { ext: '.tar.gz', format: 'tar.gz', type: 'application/gzip' },
];

/**
 * `<ref>.zip` or `<ref>.tar.gz` of the repository, files under `<repo>/`: 400 for another
 * format, 404 when the ref names no commit. The archive streams from `git archive`.
 */
export async function openArchive(config: Config, access: RepoAccess, archive: string): Promise<Download> {
  const f = FORMATS.find((x) => archive.endsWith(x.ext));
  if (!f) throw new BadRequestError(`unknown format: ${archive}`);
  const ref = archive.slice(0, -f.ext.length);
  const dir = repoDirOf(config, access);
  const commit = await resolveCommit(dir, ref);
  if (!commit) throw new NotFoundError(`repo ref not found: ${ref}`);
  const name = access.repo.name;
  return {
    filename: `${name}-${ref.replace(/\//g, '-')}${f.ext}`,
    contentType: f.type,
    commit,
    format: f.format,
    open: () => streamArchive(dir, f.format, `${name}/`, commit),
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
