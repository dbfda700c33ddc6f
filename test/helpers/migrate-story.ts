import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { git, tempDir, workTree } from './git';

// One repository's history as every fake forge tells it, each in its own service's shape: a
// git repository (merged, open and closed pull request heads, a tag, an LFS pointer, a wiki),
// 3 labels, 2 milestones (one closed), 60 issues (two pages) with comments and reactions, 3 pull
// requests (merged, open, closed) with an approval and a review with a line comment, a release
// with an asset, and topics. Authors: alice (who also has an account on the target) and carol
// (who has none).

export type StoryUser = { id: number; login: string };
export const ALICE: StoryUser = { id: 11, login: 'alice' };
export const CAROL: StoryUser = { id: 33, login: 'carol' };

const START = Date.parse('2024-01-01T00:00:00Z');
/** Hours after the story's start, as the ISO time APIs give (no milliseconds). */
export const at = (hours: number): string => new Date(START + hours * 3_600_000).toISOString().replace('.000Z', 'Z');

export type StoryReaction = { user: StoryUser; content: string; created_at: string };
export type StoryComment = { id: number; user: StoryUser; body: string; created_at: string; updated_at: string; reactions: StoryReaction[] };
export type StoryIssue = {
  number: number; title: string; body: string; user: StoryUser; state: 'open' | 'closed'; created_at: string; updated_at: string;
  closed_at: string | null; labels: string[]; milestone: string | null; comments: StoryComment[]; reactions: StoryReaction[];
};
export type StoryLine = { path: string; line: number; body: string; diff_hunk: string; created_at: string };
export type StoryReview = { id: number; user: StoryUser; state: 'APPROVED' | 'COMMENT'; body: string; submitted_at: string; lines: StoryLine[] };
export type StoryPull = StoryIssue & {
  head: string; headSha: string; base: string; baseSha: string; merged: boolean; merged_at: string | null; merge_commit_sha: string | null;
  reviews: StoryReview[];
};
export type StoryLabel = { name: string; color: string; description: string };
export type StoryMilestone = { id: number; title: string; description: string; state: 'open' | 'closed'; due_on: string | null; closed_at: string | null; created_at: string };
export type StoryRelease = { id: number; tag: string; name: string; body: string; author: StoryUser; created_at: string; asset: { id: number; name: string; bytes: Buffer; downloads: number } };

export type Story = {
  owner: string; repo: string; labels: StoryLabel[]; milestones: StoryMilestone[]; issues: StoryIssue[]; pulls: StoryPull[];
  release: StoryRelease; topics: string[]; wikiPage: { name: string; text: string }; lfs: { path: string; oid: string; bytes: Buffer };
  shas: Record<'main' | 'feat' | 'fix' | 'old' | 'merge' | 'base', string>;
};

const LFS_BYTES = Buffer.from('large file contents\n'.repeat(100));

/** The story's git side under `reposDir/<owner>/<repo>.git` (and `.wiki.git`); `pullRef(n)` names where a pull's head is kept. */
export async function buildStory(reposDir: string, pullRef: (n: number) => string, owner = 'alice', repo = 'proj'): Promise<Story> {
  const oid = crypto.createHash('sha256').update(LFS_BYTES).digest('hex');
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${LFS_BYTES.length}\n`;
  const wt = await workTree({ 'README.md': `# ${repo}\n`, '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n', 'big.bin': pointer });
  const rev = async (r: string) => (await git(wt, 'rev-parse', r)).trim();
  const commitOn = async (branch: string, from: string, file: string, text: string) => {
    await git(wt, 'checkout', '-q', '-b', branch, from);
    fs.writeFileSync(path.join(wt, file), text);
    await git(wt, 'add', '-A');
    await git(wt, 'commit', '-q', '-m', `${branch} work`);
    return rev('HEAD');
  };
  const base = await rev('main');
  const feat = await commitOn('feat', 'main', 'feat.txt', 'feature\n');
  const fix = await commitOn('fix', 'main', 'fix.txt', 'fix\nline two\n');
  const old = await commitOn('old', 'main', 'old.txt', 'old idea\n');
  await git(wt, 'checkout', '-q', 'main');
  await git(wt, 'merge', '-q', '--no-ff', 'feat', '-m', 'Merge feat');
  const merge = await rev('main');
  await git(wt, 'tag', 'v1.0');
  const bare = path.join(reposDir, owner, `${repo}.git`);
  await git(reposDir, 'init', '-q', '--bare', '-b', 'main', bare);
  // feat and old are gone from the branches: their pulls' heads are reachable only as pull refs.
  await git(wt, 'push', '-q', bare, 'main', 'fix', 'v1.0', `feat:${pullRef(61)}`, `fix:${pullRef(62)}`, `old:${pullRef(63)}`);
  const wiki = await workTree({ 'Home.md': '# Welcome\n\nThe wiki of the story.\n' });
  await git(reposDir, 'init', '-q', '--bare', '-b', 'main', path.join(reposDir, owner, `${repo}.wiki.git`));
  await git(wiki, 'push', '-q', path.join(reposDir, owner, `${repo}.wiki.git`), 'main');
  for (const dir of [wt, wiki]) fs.rmSync(dir, { recursive: true, force: true });
  return { ...storyItems(owner, repo, { main: merge, feat, fix, old, merge, base }), lfs: { path: 'big.bin', oid, bytes: LFS_BYTES } };
}

function issueAt(n: number): StoryIssue {
  const closed = n % 3 === 0;
  const user = n % 2 ? ALICE : CAROL;
  const other = n % 2 ? CAROL : ALICE;
  const comments: StoryComment[] = [{ id: 1000 + n * 2, user: other, body: `Comment on ${n}`, created_at: at(10 + n + 0.5), updated_at: at(10 + n + 0.5), reactions: [] }];
  if (n === 1) {
    comments.push({ id: 1003, user: CAROL, body: 'carol was here', created_at: at(12), updated_at: at(12), reactions: [] });
    comments[0]!.reactions.push({ user: ALICE, content: 'hooray', created_at: at(13) });
  }
  return {
    number: n, title: `Issue ${n}`, body: `Body of issue ${n}`, user, state: closed ? 'closed' : 'open',
    created_at: at(10 + n), updated_at: at(10 + n + 1), closed_at: closed ? at(100 + n) : null,
    labels: n === 1 ? ['bug'] : n === 2 ? ['bug', 'feature'] : n % 10 === 0 ? ['docs'] : [],
    milestone: n <= 3 ? 'v1' : n === 4 ? 'v0' : null, comments,
    reactions: n === 1 ? [{ user: CAROL, content: '+1', created_at: at(14) }, { user: ALICE, content: 'heart', created_at: at(14) }] : [],
  };
}

function storyItems(owner: string, repo: string, shas: Story['shas']): Omit<Story, 'lfs'> {
  const pull = (n: number, p: Partial<StoryPull>): StoryPull => ({
    number: n, title: '', body: '', user: ALICE, state: 'open', created_at: at(200 + n), updated_at: at(201 + n), closed_at: null,
    labels: [], milestone: null, comments: [], reactions: [], head: '', headSha: '', base: 'main', baseSha: shas.base,
    merged: false, merged_at: null, merge_commit_sha: null, reviews: [], ...p,
  });
  return {
    owner, repo, shas, topics: ['forge', 'migration'], wikiPage: { name: 'Home', text: 'The wiki of the story.' },
    labels: [
      { name: 'bug', color: 'ee0701', description: 'broken' },
      { name: 'feature', color: '00aabb', description: 'new things' },
      { name: 'docs', color: 'c5def5', description: '' },
    ],
    milestones: [
      { id: 1, title: 'v1', description: 'first', state: 'open', due_on: '2030-01-02T00:00:00Z', closed_at: null, created_at: at(1) },
      { id: 2, title: 'v0', description: 'before', state: 'closed', due_on: null, closed_at: at(5), created_at: at(2) },
    ],
    issues: Array.from({ length: 60 }, (_, i) => issueAt(i + 1)),
    pulls: [
      pull(61, {
        title: 'add feature', state: 'closed', head: 'feat', headSha: shas.feat, merged: true, merged_at: at(270), closed_at: at(270),
        merge_commit_sha: shas.merge, labels: ['feature'],
        reviews: [{ id: 501, user: CAROL, state: 'APPROVED', body: 'ship it', submitted_at: at(265), lines: [] }],
      }),
      pull(62, {
        title: 'a fix', user: CAROL, body: 'fixes #1', head: 'fix', headSha: shas.fix,
        comments: [{ id: 2001, user: ALICE, body: 'looks fine', created_at: at(263), updated_at: at(263), reactions: [] }],
        reactions: [{ user: ALICE, content: 'rocket', created_at: at(264) }],
        reviews: [{
          id: 502, user: ALICE, state: 'COMMENT', body: 'one remark', submitted_at: at(266),
          lines: [{ path: 'fix.txt', line: 1, body: 'typo here', diff_hunk: '@@ -0,0 +1,2 @@\n+fix', created_at: at(266) }],
        }],
      }),
      pull(63, { title: 'old idea', state: 'closed', head: 'old', headSha: shas.old, closed_at: at(290) }),
    ],
    release: {
      id: 71, tag: 'v1.0', name: 'One', body: 'notes 1', author: ALICE, created_at: at(300),
      asset: { id: 81, name: 'one.txt', bytes: Buffer.from('asset one\n'.repeat(20)), downloads: 7 },
    },
  };
}

/** A bare-bones work dir for a fake's own scratch files. */
export const storyTmp = () => tempDir('hearth-story-');
