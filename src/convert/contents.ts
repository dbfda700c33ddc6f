import type { Config } from '../config/schema';
import type { CommitMeta } from '../git/last-commit';
import type { ContentItem } from '../services/repo/contents';
import type { RefCommit } from '../services/repo/contents-paths';
import type { RepoAccess } from '../services/repo/repos';
import { repoUrls } from './repo';

// ContentsResponse, FileResponse, FilesResponse and FileDeleteResponse, as Gitea builds them.

const escapeSegments = (p: string) => p.split('/').map(encodeURIComponent).join('/');
/** Go's url.QueryEscape: spaces become `+`. */
const queryEscape = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
/** Git's ISO dates as Go renders a time.Time: a zero offset is `Z`. */
const goTime = (iso: string) => iso.replace(/[+-]00:00$/, 'Z');
const utcTime = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** Go's zero time: Gitea leaves CommitMeta.created unset in these answers. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** `branch/main`, `tag/v1`, `commit/<id>`: the ref part of web links. */
function refWebLinkPath(rc: RefCommit): string {
  return `${rc.kind}/${escapeSegments(rc.kind === 'commit' ? rc.input : rc.name)}`;
}

/** ContentsResponse of entries at one ref (the repository URLs are computed once for a listing). */
export function contentsConverter(config: Config, access: RepoAccess, rc: RefCommit) {
  const { url: api, html_url: html } = repoUrls(config, access.owner.name, access.repo.name);
  const ref = queryEscape(rc.input);
  const web = refWebLinkPath(rc);
  return (item: ContentItem) => toContents(api, html, ref, web, item);
}

function toContents(api: string, html: string, ref: string, web: string, item: ContentItem) {
  const { entry, type } = item;
  const path = escapeSegments(entry.path);
  const self = `${api}/contents/${path}?ref=${ref}`;
  const isBlob = type === 'file' || type === 'symlink';
  const htmlUrl = type === 'submodule' ? null : `${html}/src/${web}/${path}`;
  // Gitea points a directory's git_url at git/blobs too, which cannot read a tree: the tree
  // endpoint (GitHub's form) is where that URL resolves.
  const gitUrl = type === 'submodule' ? null : `${api}/git/${type === 'dir' ? 'trees' : 'blobs'}/${entry.sha}`;
  const hasContent = type === 'file' && item.content;
  return {
    name: entry.name,
    path: entry.path,
    sha: entry.sha,
    ...(item.last ? {
      last_commit_sha: item.last.sha,
      last_committer_date: goTime(item.last.committerDate),
      last_author_date: goTime(item.last.authorDate),
    } : {}),
    type,
    size: entry.size,
    encoding: hasContent ? 'base64' : null,
    content: hasContent ? item.content!.toString('base64') : null,
    target: type === 'symlink' ? (item.target ?? '') : null,
    url: self,
    html_url: htmlUrl,
    git_url: gitUrl,
    // An LFS file downloads from media/, which sends the object rather than its pointer.
    download_url: isBlob ? `${html}/${item.lfs ? 'media' : 'raw'}/${web}/${path}` : null,
    submodule_git_url: type === 'submodule' ? (item.submoduleUrl ?? null) : null,
    ...(item.lfs ? { lfs_oid: item.lfs.oid, lfs_size: item.lfs.size } : {}),
    _links: { self, git: gitUrl, html: htmlUrl },
  };
}

/** Files at a ref, null where missing (file-contents) or deleted (write answers). */
export function toContentsList(config: Config, access: RepoAccess, rc: RefCommit, items: (ContentItem | null)[]) {
  const conv = contentsConverter(config, access, rc);
  return items.map((i) => (i ? conv(i) : null));
}

export function toFileCommitResponse(config: Config, access: RepoAccess, c: CommitMeta) {
  const { url: api, html_url: html } = repoUrls(config, access.owner.name, access.repo.name);
  const meta = (kind: 'commits' | 'trees', sha: string) => ({ url: `${api}/git/${kind}/${sha}`, sha, created: ZERO_TIME });
  return {
    ...meta('commits', c.sha),
    html_url: `${html}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email, date: utcTime(c.author.date) },
    committer: { name: c.committer.name, email: c.committer.email, date: utcTime(c.committer.date) },
    parents: c.parents.map((p) => meta('commits', p)),
    message: c.message,
    tree: meta('trees', c.tree),
  };
}

/** hearth does not sign commits. */
export const UNSIGNED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' };

export function toFilesResponse(config: Config, access: RepoAccess, r: { ref: RefCommit; commit: CommitMeta; items: (ContentItem | null)[] }) {
  return {
    files: toContentsList(config, access, r.ref, r.items),
    commit: toFileCommitResponse(config, access, r.commit),
    verification: UNSIGNED,
  };
}

/** FileResponse (and FileDeleteResponse, whose content is null) from a one-file write. */
export function toFileResponse(config: Config, access: RepoAccess, r: { ref: RefCommit; commit: CommitMeta; items: (ContentItem | null)[] }) {
  const files = toFilesResponse(config, access, r);
  return { content: files.files[0] ?? null, commit: files.commit, verification: files.verification };
}
