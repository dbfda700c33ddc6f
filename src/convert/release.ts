import type { Config } from '../config/schema';
import type { Attachment, Release } from '../db/schema';
import { isoTime } from '../lib/time';
import type { ReleaseView } from '../services/release/releases';
import type { RepoAccess } from '../services/repo/repos';
import type { ApiAttachment } from './issue';
import { ghostUser } from './issue';
import { repoUrls } from './repo';
import { toApiUser } from './user';

// Release and its assets, as Gitea's convert.ToAPIRelease.

/** Tag names keep their slashes in URLs; each segment is escaped (Gitea's PathEscapeSegments). */
const escapeSegments = (s: string) => s.split('/').map(encodeURIComponent).join('/');

export function toApiReleaseAsset(config: Config, access: RepoAccess, release: Pick<Release, 'tag_name'>, a: Attachment): ApiAttachment {
  const { html_url } = repoUrls(config, access.owner.name, access.repo.name);
  return {
    id: a.id, name: a.name, size: a.size, download_count: a.download_count, created_at: isoTime(a.created_unix), uuid: a.uuid,
    browser_download_url: `${html_url}/releases/download/${escapeSegments(release.tag_name)}/${encodeURIComponent(a.name)}`,
  };
}

export function toApiRelease(config: Config, access: RepoAccess, view: ReleaseView) {
  const { release: r } = view;
  const urls = repoUrls(config, access.owner.name, access.repo.name);
  const url = `${urls.url}/releases/${r.id}`;
  const tag = escapeSegments(r.tag_name);
  return {
    id: r.id,
    tag_name: r.tag_name,
    target_commitish: r.target,
    name: r.title,
    body: r.note,
    url,
    html_url: `${urls.html_url}/releases/tag/${tag}`,
    tarball_url: `${urls.html_url}/archive/${tag}.tar.gz`,
    zipball_url: `${urls.html_url}/archive/${tag}.zip`,
    upload_url: `${url}/assets`,
    draft: r.is_draft === 1,
    prerelease: r.is_prerelease === 1,
    created_at: isoTime(r.created_unix),
    // Gitea 1.25 has no separate publication time: published_at is the creation time.
    published_at: isoTime(r.created_unix),
    // As Gitea, the publisher is shown as to an anonymous viewer (no private email).
    author: toApiUser(config, view.publisher ?? ghostUser(), null),
    assets: view.assets.map((a) => toApiReleaseAsset(config, access, r, a)),
  };
}
