import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_templates_test.go: repo1's issue templates,
// none, then one good and two broken ones, the broken counted in X-Gitea-Warning.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

describe('api_issue_templates_test', () => {
  it('TestAPIIssueTemplateList', async () => {
    expect(await g.call('repos/user2/repo1/issue_templates')).toEqual([]);
    const auth = await g.basic('user2');
    const files: Record<string, string> = {
      '.gitea/ISSUE_TEMPLATE/tmpl-ok.md': '----\nname: foo\nabout: bar\n----\n',
      '.gitea/ISSUE_TEMPLATE/tmpl-err1.yml': "name: '",
      '.gitea/ISSUE_TEMPLATE/tmpl-err2.yml': 'other: ',
    };
    for (const [path, text] of Object.entries(files)) {
      await g.call(`repos/user2/repo1/contents/${path}`, { method: 'POST', auth, json: { content: Buffer.from(text).toString('base64'), message: `add ${path}` } }, 201);
    }
    const res = await g.api('repos/user2/repo1/issue_templates');
    expect(res.status).toBe(200);
    const list = await res.json() as { name: string }[];
    expect(list.map((t) => t.name)).toEqual(['foo']);
    expect(res.headers.get('x-gitea-warning')).toBe('error occurs when parsing issue template: count=2');
  });
});
