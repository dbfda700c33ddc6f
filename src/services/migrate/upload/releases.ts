import crypto from 'node:crypto';
import { lockRow } from '../../../db/dialect';
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../../db/connect';
import { countCommits } from '../../../git/log';
import { getTag } from '../../../git/refs';
import { insertAttachment } from '../../../models/attachment';
import { getReleaseRowByTag, insertReleaseRow, updateReleaseRow } from '../../../models/release';
import { syncReleaseCounter } from '../../release/releases';
import { attachmentKey } from '../../issue/attachment-files';
import type { SourceAsset, SourceRelease } from '../downloader';
import { unix, type ImportContext } from './context';

// Releases with their assets (Gitea's GetReleases / CreateReleases). Asset files are downloaded to
// a spool file and put into the blob storage (attachments/<u[0]>/<u[1]>/<uuid>, as release uploads) before the
// page's rows are written; only assets under the source's root are downloaded (Gitea refuses
// others too), so a release cannot point the importer at another host.

type Stored = { asset: SourceAsset; uuid: string; file: string; size: number };

export type ReleaseCounts = { releases: number; assets: number };


async function downloadAssets(ctx: ImportContext, rel: SourceRelease, stored: Stored[]): Promise<Stored[]> {
  const out: Stored[] = [];
  for (const asset of rel.assets ?? []) {
    if (!ctx.source.isSourceAsset(asset)) {
      ctx.log.warn({ repo: ctx.repo.id, tag: rel.tag_name, asset: asset.name }, 'migration: asset outside the source, not downloaded');
      continue;
    }
    const uuid = crypto.randomUUID();
    fs.mkdirSync(ctx.spoolDir, { recursive: true });
    const file = path.join(ctx.spoolDir, `migrate-${uuid}`);
    const entry = { asset, uuid, file, size: 0 };
    // Registered before the download: a failure removes the partial file with the others.
    stored.push(entry);
    entry.size = await ctx.source.downloadAsset(asset, file);
    await ctx.blobs.putFile(attachmentKey(uuid), file);
    out.push(entry);
  }
  return out;
}

/** sha1 and commit count from the clone when the tag exists there (a draft may have none). */
async function tagCommit(ctx: ImportContext, tag: string): Promise<{ sha1: string; num_commits: number }> {
  if (!ctx.gitDir || tag.startsWith('-')) return { sha1: '', num_commits: 0 };
  const info = await getTag(ctx.gitDir, tag).catch(() => null);
  if (!info) return { sha1: '', num_commits: 0 };
  return { sha1: info.commit, num_commits: await countCommits(ctx.gitDir, { revs: [info.commit] }).catch(() => 0) };
}

async function writeRelease(ctx: ImportContext, trx: DB, rel: SourceRelease, commit: { sha1: string; num_commits: number }, assets: Stored[]) {
  const a = ctx.authors.of(rel.author);
  const created = unix(rel.published_at) || unix(rel.created_at);
  const fields = {
    publisher_id: a.poster_id, original_author: a.original_author, original_author_id: a.original_author_id,
    target: rel.target_commitish ?? '', title: rel.name ?? '', note: rel.body ?? '', ...commit,
    is_draft: rel.draft ? 1 : 0, is_prerelease: rel.prerelease ? 1 : 0, is_tag: 0, created_unix: created, updated_unix: created,
  };
  // The clone may already have a tag-only row for the tag: it becomes the release.
  const existing = await getReleaseRowByTag(trx, ctx.repo.id, rel.tag_name);
  let id: number;
  if (existing) {
    await updateReleaseRow(trx, existing.id, { ...fields, tag_name: rel.tag_name, lower_tag_name: rel.tag_name.toLowerCase() });
    id = existing.id;
  } else {
    id = (await insertReleaseRow(trx, { ...fields, repo_id: ctx.repo.id, tag_name: rel.tag_name, lower_tag_name: rel.tag_name.toLowerCase() })).id;
  }
  for (const s of assets) {
    await insertAttachment(trx, {
      uuid: s.uuid, repo_id: ctx.repo.id, release_id: id, uploader_id: a.poster_id, name: s.asset.name,
      size: s.size, download_count: s.asset.download_count ?? 0, created_unix: unix(s.asset.created_at) || created,
    });
  }
}

export async function importReleases(ctx: ImportContext): Promise<ReleaseCounts> {
  const counts: ReleaseCounts = { releases: 0, assets: 0 };
  for await (const page of ctx.source.getReleases()) {
    const stored: Stored[] = [];
    try {
      const ready: { rel: SourceRelease; commit: { sha1: string; num_commits: number }; assets: Stored[] }[] = [];
      for (const rel of page) {
        if (!rel.tag_name) continue;
        ready.push({ rel, commit: await tagCommit(ctx, rel.tag_name), assets: await downloadAssets(ctx, rel, stored) });
      }
      await ctx.authors.prime(ready.map((r) => r.rel.author));
      await ctx.db.transaction().execute(async (trx) => {
        await lockRow(trx, 'repository', ctx.repo.id);
        for (const r of ready) await writeRelease(ctx, trx, r.rel, r.commit, r.assets);
        await syncReleaseCounter(trx, ctx.repo.id);
      });
      counts.releases += ready.length;
      counts.assets += ready.reduce((n, r) => n + r.assets.length, 0);
      stored.length = 0;
    } finally {
      // Files of a page whose rows were not written.
      for (const s of stored) {
        fs.rmSync(s.file, { force: true });
        await ctx.blobs.remove(attachmentKey(s.uuid));
      }
    }
    ctx.log.info({ repo: ctx.repo.id, ...counts }, 'migration: releases imported');
  }
  return counts;
}
