import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { healthy, runDoctor } from '../../src/services/doctor/doctor';
import { git } from './git';
import type { Story } from './migrate-story';
import { as, ok, type TestServer } from './server';

// What the target's API must answer after a story was migrated, whatever service told it;
// `caps` leaves out what a service does not have (OneDev has no releases, CodeCommit no issues).

export type StoryCaps = {
  labels: boolean; milestones: boolean; issues: boolean; issueReactions: boolean; commentReactions: boolean;
  pullReactions: boolean; reviews: boolean; reviewBodies: boolean; lineComments: boolean; releases: boolean; topics: boolean;
  /** The source gives when an issue was closed (OneDev's list does not). */
  closedDates: boolean;
  /** The source gives a merged pull's merge commit. */
  mergeCommits: boolean;
  /** The source's numeric user ids reach original_author_id (services that give ids). */
  authorIds: boolean;
};

export const ALL_CAPS: StoryCaps = {
  labels: true, milestones: true, issues: true, issueReactions: true, commentReactions: true, pullReactions: true,
  reviews: true, reviewBodies: true, lineComments: true, releases: true, topics: true, authorIds: true, closedDates: true, mergeCommits: true,
};

type Creds = { username: string; password: string };
const time = (iso: string | null) => (iso ? Date.parse(iso) : null);

export async function expectStory(dst: TestServer, who: Creds, name: string, story: Story, caps: StoryCaps): Promise<void> {
  const api = async (p: string) => ok(await dst.request(`api/v1/repos/${who.username}/${name}${p}`, { auth: as(who) }));
  if (caps.labels) {
    const labels = await api('/labels');
    expect(labels.map((l: { name: string; color: string }) => `${l.name}:${l.color}`).sort())
      .toEqual(story.labels.map((l) => `${l.name}:${l.color}`).sort());
  }
  if (caps.milestones) {
    const ms = Object.fromEntries((await api('/milestones?state=all')).map((m: { title: string }) => [m.title, m]));
    expect(ms.v1).toMatchObject({ state: 'open', due_on: '2030-01-02T00:00:00Z' });
    expect(ms.v0.state).toBe('closed');
  }
  if (caps.issues) await expectIssues(api, story, caps);
  await expectPulls(api, dst, who, name, story, caps);
  if (caps.releases) await expectRelease(api, story);
  if (caps.topics) expect((await api('/topics')).topics).toEqual(story.topics);
}

async function expectIssues(api: (p: string) => Promise<any>, story: Story, caps: StoryCaps): Promise<void> {
  const listed = [...await api('/issues?state=all&type=issues&limit=50&page=1'), ...await api('/issues?state=all&type=issues&limit=50&page=2')];
  expect(listed.map((i: { number: number }) => i.number).sort((a: number, b: number) => a - b)).toEqual(story.issues.map((i) => i.number));
  expect(listed.filter((i: { state: string }) => i.state === 'closed').length).toBe(story.issues.filter((i) => i.state === 'closed').length);
  const one = await api('/issues/1');
  const s1 = story.issues[0]!;
  expect(one).toMatchObject({ title: s1.title, body: s1.body, state: 'open', original_author: '', comments: s1.comments.length });
  expect(one.user.login).toBe('alice');
  expect(time(one.created_at)).toBe(time(s1.created_at));
  if (caps.labels) expect(one.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
  if (caps.milestones) expect(one.milestone?.title).toBe('v1');
  // carol has no account here: the migrating user is shown, with her name (and id) from the source.
  const two = await api('/issues/2');
  expect(two).toMatchObject({ original_author: 'carol', original_author_id: caps.authorIds ? 33 : expect.any(Number) });
  expect(two.user.login).toBe('alice');
  const three = await api('/issues/3');
  expect(three.state).toBe('closed');
  if (caps.closedDates) expect(time(three.closed_at)).toBe(time(story.issues[2]!.closed_at));
  const comments = await api('/issues/1/comments');
  expect(comments.map((c: { body: string; user: { login: string }; original_author: string }) => [c.body, c.user.login, c.original_author]))
    .toEqual(s1.comments.map((c) => [c.body, 'alice', c.user.login === 'alice' ? '' : c.user.login]));
  expect(time(comments[0].created_at)).toBe(time(s1.comments[0]!.created_at));
  if (caps.issueReactions) {
    const reactions = await api('/issues/1/reactions');
    expect(reactions.map((r: { content: string }) => r.content).sort()).toEqual(['+1', 'heart']);
  }
  if (caps.commentReactions) {
    const onComment = await api(`/issues/comments/${comments[0].id}/reactions`);
    expect(onComment.map((r: { content: string }) => r.content)).toEqual(['hooray']);
  }
}

async function expectPulls(api: (p: string) => Promise<any>, dst: TestServer, who: Creds, name: string, story: Story, caps: StoryCaps): Promise<void> {
  const [merged, open, closed] = [await api('/pulls/61'), await api('/pulls/62'), await api('/pulls/63')];
  expect(merged).toMatchObject({ title: 'add feature', state: 'closed', merged: true, base: { ref: 'main' } });
  if (caps.mergeCommits) expect(merged.merge_commit_sha).toBe(story.shas.merge);
  expect(merged.head.sha).toBe(story.shas.feat);
  expect(time(merged.created_at)).toBe(time(story.pulls[0]!.created_at));
  if (caps.closedDates) expect(time(merged.merged_at)).toBe(time(story.pulls[0]!.merged_at));
  expect(open).toMatchObject({ title: 'a fix', state: 'open', merged: false, body: 'fixes #1' });
  // A pull's JSON has no original author (Gitea's neither): its issue does.
  expect((await api('/issues/62')).original_author).toBe('carol');
  expect(open.head).toMatchObject({ ref: 'fix', sha: story.shas.fix });
  expect(closed).toMatchObject({ state: 'closed', merged: false });
  // Every pull's head is kept under its number, a merged or closed one's branch gone or not.
  const dir = path.join(dst.hearth.config.repository.root, who.username, `${name}.git`);
  expect((await git(dir, 'rev-parse', 'refs/pull/61/head', 'refs/pull/63/head')).trim().split('\n')).toEqual([story.shas.feat, story.shas.old]);
  expect((await git(dir, 'for-each-ref', 'refs/migrate/')).trim()).toBe('');
  expect((await api('/issues/62/comments')).map((c: { body: string }) => c.body)).toContain('looks fine');
  if (caps.pullReactions) expect((await api('/issues/62/reactions')).map((r: { content: string }) => r.content)).toEqual(['rocket']);
  if (!caps.reviews) return;
  const reviews = await api('/pulls/62/reviews');
  const remark = reviews.find((r: { state: string }) => r.state === 'COMMENT');
  if (caps.reviewBodies) expect(remark).toMatchObject({ body: 'one remark' });
  if (caps.lineComments) {
    const lines = await api(`/pulls/62/reviews/${remark.id}/comments`);
    expect(lines.map((c: { path: string; body: string }) => [c.path, c.body])).toEqual([['fix.txt', 'typo here']]);
  }
  expect((await api('/pulls/61/reviews')).map((r: { state: string }) => r.state)).toEqual(['APPROVED']);
}

async function expectRelease(api: (p: string) => Promise<any>, story: Story): Promise<void> {
  const releases = await api('/releases');
  const rel = releases.find((r: { tag_name: string }) => r.tag_name === story.release.tag);
  expect(rel).toMatchObject({ name: story.release.name, body: story.release.body });
  expect(rel.author.login).toBe('alice');
  expect(rel.assets.map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([[story.release.asset.name, story.release.asset.bytes.length]]);
  const file = await fetch(rel.assets[0].browser_download_url);
  expect(Buffer.from(await file.arrayBuffer()).equals(story.release.asset.bytes)).toBe(true);
}

/** The wiki page and the LFS object came along (git data, whatever the service's API has). */
export async function expectGitExtras(dst: TestServer, who: Creds, name: string, story: Story): Promise<void> {
  const page = await ok(await dst.request(`api/v1/repos/${who.username}/${name}/wiki/page/${story.wikiPage.name}`, { auth: as(who) }));
  expect(Buffer.from(page.content_base64, 'base64').toString()).toContain(story.wikiPage.text);
  const media = await dst.request(`api/v1/repos/${who.username}/${name}/media/${story.lfs.path}`, { auth: as(who) });
  expect(media.status).toBe(200);
  expect(Buffer.from(await media.arrayBuffer()).equals(story.lfs.bytes)).toBe(true);
}

/** `hearth doctor` over the target finds nothing wrong. */
export async function expectDoctorClean(dst: TestServer): Promise<void> {
  const ctx = { config: dst.hearth.config, fix: false, fsckTimeoutMs: 60_000, stamp: 'STAMP', signal: new AbortController().signal };
  const results = await runDoctor(dst.hearth.db, ctx);
  expect(results.filter((r) => r.problems.length).map((r) => `${r.name}: ${r.problems.join('; ')}`)).toEqual([]);
  expect(healthy(results)).toBe(true);
}

/** Every file under the target's attachment and blob stores (what a failed migration must not leave). */
export function storedFiles(dst: TestServer): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  for (const sub of ['attachments', 'packages/blobs']) walk(path.join(dst.hearth.config.server.data_dir, sub));
  return out.sort();
}

/** No repository row, directory, wiki, attachment or blob is left of a failed migration. */
export async function expectNothingLeft(dst: TestServer, who: Creds, name: string, filesBefore: string[]): Promise<void> {
  expect((await dst.request(`api/v1/repos/${who.username}/${name}`, { auth: as(who) })).status).toBe(404);
  const root = dst.hearth.config.repository.root;
  expect(fs.existsSync(path.join(root, who.username, `${name}.git`))).toBe(false);
  expect(fs.existsSync(path.join(root, who.username, `${name}.wiki.git`))).toBe(false);
  expect(storedFiles(dst)).toEqual(filesBefore);
}
