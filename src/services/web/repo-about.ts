import type { DB } from '../../db/connect';
import { listBlobSizes } from '../../git/blob-sizes';
import { commitInfos } from '../../git/refs';
import { languageStats } from '../../lib/languages';
import { Lru } from '../../lib/lru';
import { getLatestRelease } from '../release/releases';
import { topicsOf } from '../repo/repo-settings';
import type { RepoAccess } from '../repo/repos';

// The repository home's side facts: its about box (description, website, topics, latest
// release, languages) and the one-line summaries of the commits a listing names. What a full
// commit id names never changes, so both are kept by commit id: a warm page runs no git for them.

export type Language = { name: string; percent: number };
export type About = {
  description: string; website: string; topics: string[];
  release: { tag: string; name: string } | null;
  languages: Language[];
};
export type CommitSummary = { sha: string; subject: string; authorName: string; authorEmail: string; date: string };

const languageCache = new Lru<string, Language[]>(512);
const summaryCache = new Lru<string, CommitSummary>(20_000);

/** Languages by share of bytes at `head`, largest first; those under 0.1% are left out. */
export async function languagesAt(dir: string, head: string): Promise<Language[]> {
  const key = `${dir}\0${head}`;
  const hit = languageCache.get(key);
  if (hit) return hit;
  const stats = languageStats(await listBlobSizes(dir, head));
  const total = Object.values(stats).reduce((a, b) => a + b, 0);
  const langs = Object.entries(stats).map(([name, bytes]) => ({ name, percent: total ? (bytes * 100) / total : 0 }))
    .filter((l) => l.percent >= 0.1).sort((a, b) => b.percent - a.percent);
  languageCache.set(key, langs);
  return langs;
}

/** The about box; the latest release only for visitors who read releases. */
export async function aboutOf(db: DB, access: RepoAccess, dir: string, head: string, readsReleases: boolean): Promise<About> {
  const latest = readsReleases ? await getLatestRelease(db, access).catch(() => null) : null;
  return {
    description: access.repo.description, website: access.repo.website, topics: topicsOf(access.repo),
    release: latest ? { tag: latest.release.tag_name, name: latest.release.title || latest.release.tag_name } : null,
    languages: await languagesAt(dir, head),
  };
}

/** First lines, authors and dates of commits by id, in one git call for those not seen before. */
export async function commitSummaries(dir: string, shas: string[]): Promise<Map<string, CommitSummary>> {
  const out = new Map<string, CommitSummary>();
  const missing: string[] = [];
  for (const sha of new Set(shas)) {
    const hit = summaryCache.get(sha);
    if (hit) out.set(sha, hit);
    else missing.push(sha);
  }
  if (!missing.length) return out;
  for (const [sha, c] of await commitInfos(dir, missing)) {
    const summary = { sha, subject: c.message.split('\n', 1)[0] ?? '', authorName: c.author.name, authorEmail: c.author.email, date: c.committer.date };
    summaryCache.set(sha, summary);
    out.set(sha, summary);
  }
  return out;
}
