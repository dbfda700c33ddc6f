import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { startTestServer, type TestServer } from '../helpers/server';
import { WebClient, ownerAndOther, type WebUser } from '../helpers/web-client';

// A wiki page's revisions over HTTP: the history links each revision to its commit page
// (Gitea's /wiki/commit/{sha}), which shows what changed against the parent (the whole page for
// the first), with `.diff` and `.patch` as text; a page as of a revision; what a missing
// revision and a user who cannot read the wiki get.

let s: TestServer;
let alice: WebUser;
let bob: WebUser;

/** alice's wiki of `repo` with Home written twice; the history's two shas, newest first. */
async function twoRevisions(repo: string): Promise<[string, string]> {
  const from = `alice/${repo}/wiki/_new`;
  expect((await alice.web.post(from, { title: 'Home', content: '# Welcome\n\nold line\n', message: 'first words' }, { from })).status).toBe(303);
  const edit = `alice/${repo}/wiki/Home?action=_edit`;
  expect((await alice.web.post(edit, { title: 'Home', content: '# Welcome\n\nnew line\n', message: 'second go' }, { from: edit })).status).toBe(303);
  const history = await (await alice.web.get(`alice/${repo}/wiki/Home?action=_revision`)).text();
  const shas = [...history.matchAll(/wiki\/commit\/([0-9a-f]{40})"/g)].map((m) => m[1]!);
  expect(shas).toHaveLength(2);
  return shas as [string, string];
}

beforeAll(async () => {
  s = await startTestServer();
  ({ alice, bob } = await ownerAndOther(s));
  await createRepo(s, alice, 'docs');
  await createRepo(s, alice, 'hidden', { private: true });
});
afterAll(async () => { await s.stop(); });

describe('a wiki revision and its diff', () => {
  it('shows a revision\'s changes against its parent, the first one whole, and the raw diff and patch', async () => {
    const [second, first] = await twoRevisions('docs');
    const page = await bob.web.get(`alice/docs/wiki/commit/${second}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('second go');
    expect(text).toContain(`wiki/commit/${first}"`);
    expect(text).toMatch(/<tr class="del">.*old line/);
    expect(text).toMatch(/<tr class="add">.*new line/);
    expect(text).toContain(`wiki/Home?revision=${second}"`);
    expect(text).toContain('1 changed file with 1 addition and 1 deletion');
    const whole = await (await bob.web.get(`alice/docs/wiki/commit/${first.slice(0, 10)}`)).text();
    expect(whole).toContain('first words');
    expect(whole).toContain('with 3 additions and 0 deletions');
    const diff = await bob.web.get(`alice/docs/wiki/commit/${second}.diff`);
    expect(diff.headers.get('content-type')).toContain('text/plain');
    const raw = await diff.text();
    expect(raw).toContain('-old line');
    expect(raw).toContain('+new line');
    expect(await (await bob.web.get(`alice/docs/wiki/commit/${second}.patch`)).text()).toContain('Subject: [PATCH] second go');
    const old = await (await bob.web.get(`alice/docs/wiki/Home?revision=${first}`)).text();
    expect(old).toContain('old line');
    expect(old).not.toContain('new line');
  });

  it('answers 404 for a revision the wiki lacks, a name that is no sha, and a wiki the visitor cannot read', async () => {
    await twoRevisions('hidden');
    const history = await (await alice.web.get('alice/hidden/wiki/Home?action=_revision')).text();
    const sha = /wiki\/commit\/([0-9a-f]{40})"/.exec(history)![1]!;
    expect((await alice.web.get(`alice/hidden/wiki/commit/${sha}`)).status).toBe(200);
    expect((await alice.web.get(`alice/hidden/wiki/commit/${'0'.repeat(40)}`)).status).toBe(404);
    expect((await alice.web.get('alice/hidden/wiki/commit/main')).status).toBe(404);
    expect((await alice.web.get('alice/docs/wiki/commit/abc')).status).toBe(404);
    for (const c of [bob.web, new WebClient(s)]) {
      expect((await c.get(`alice/hidden/wiki/commit/${sha}`)).status).toBe(404);
      expect((await c.get(`alice/hidden/wiki/commit/${sha}.diff`)).status).toBe(404);
    }
  });
});
