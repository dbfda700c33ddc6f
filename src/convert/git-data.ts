import type { Config } from '../config/schema';
import type { RefEntry } from '../git/objects';
import type { AnnotatedTagView, BlobView, TreeView } from '../services/repo/git-data';
import type { RepoAccess } from '../services/repo/repos';
import { repoUrls } from './repo';

const apiUrl = (config: Config, a: RepoAccess) => repoUrls(config, a.owner.name, a.repo.name).url;

export function toApiBlob(config: Config, access: RepoAccess, b: BlobView) {
  return {
    content: b.content ? b.content.toString('base64') : '',
    encoding: 'base64',
    url: `${apiUrl(config, access)}/git/blobs/${b.sha}`,
    sha: b.sha,
    size: b.size,
  };
}

/** GitTreeResponse; submodule entries have no URL, as on GitHub and Gitea. */
export function toApiTree(config: Config, access: RepoAccess, t: TreeView) {
  const base = apiUrl(config, access);
  return {
    sha: t.sha,
    url: `${base}/git/trees/${t.sha}`,
    tree: t.entries.map((e) => ({
      path: e.path,
      mode: e.mode,
      type: e.type,
      size: e.size,
      sha: e.sha,
      url: e.type === 'tree' ? `${base}/git/trees/${e.sha}` : e.type === 'blob' ? `${base}/git/blobs/${e.sha}` : '',
    })),
    truncated: t.truncated,
    page: t.page,
    total_count: t.total,
  };
}

const escapeSegments = (name: string) => name.split('/').map(encodeURIComponent).join('/');

export function toApiRef(config: Config, access: RepoAccess, r: RefEntry) {
  const base = apiUrl(config, access);
  return {
    ref: r.name,
    url: `${base}/git/${escapeSegments(r.name)}`,
    object: { type: r.type, sha: r.sha, url: `${base}/git/${encodeURIComponent(r.type)}s/${r.sha}` },
  };
}

/** Tagger dates in UTC, as Gitea's ToCommitUser renders them. */
const utc = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function toApiAnnotatedTag(config: Config, access: RepoAccess, t: AnnotatedTagView) {
  const base = apiUrl(config, access);
  return {
    tag: t.name,
    sha: t.sha,
    url: `${base}/git/tags/${t.sha}`,
    message: t.message,
    tagger: t.tagger ? { name: t.tagger.name, email: t.tagger.email, date: utc(t.tagger.unix) } : null,
    object: { type: 'commit', url: `${base}/git/commits/${t.commit}`, sha: t.commit },
    verification: t.verification,
  };
}
