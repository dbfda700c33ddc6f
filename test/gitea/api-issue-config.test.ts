import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_config_test.go: repo1's issue config, the
// default one and one read from each place Gitea looks for it.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

const b64 = (s: string) => Buffer.from(s).toString('base64');
async function withFile<T>(path: string, text: string, read: () => Promise<T>): Promise<T> {
  const auth = await g.basic('user2');
  const made = await g.call(`repos/user2/repo1/contents/${path}`, { method: 'POST', auth, json: { content: b64(text), message: `add ${path}` } }, 201);
  try {
    return await read();
  } finally {
    await g.call(`repos/user2/repo1/contents/${path}`, { method: 'DELETE', auth, json: { sha: made.content.sha, message: `remove ${path}` } });
  }
}

describe('api_issue_config_test', () => {
  it('TestAPIReposGetDefaultIssueConfig', async () => {
    expect(await g.call('repos/user2/repo1/issue_config')).toEqual({ blank_issues_enabled: true, contact_links: [] });
  });

  it('TestAPIReposValidateDefaultIssueConfig', async () => {
    expect(await g.call('repos/user2/repo1/issue_config/validate')).toEqual({ valid: true, message: '' });
  });

  it('TestAPIRepoIssueConfigPaths', async () => {
    const config = 'blank_issues_enabled: false\ncontact_links:\n  - name: Test\n    url: https://example.com\n    about: A link\n';
    for (const path of ['.gitea/ISSUE_TEMPLATE/config.yaml', '.gitea/issue_template/config.yml', '.github/ISSUE_TEMPLATE/config.yaml', '.github/issue_template/config.yml']) {
      const got = await withFile(path, config, () => g.call('repos/user2/repo1/issue_config'));
      expect({ path, got }).toEqual({ path, got: { blank_issues_enabled: false, contact_links: [{ name: 'Test', url: 'https://example.com', about: 'A link' }] } });
    }
  });

  it('TestAPIRepoValidateIssueConfig', async () => {
    const bad = await withFile('.gitea/ISSUE_TEMPLATE/config.yaml', 'blank_issues_enabled: [\n', () => g.call('repos/user2/repo1/issue_config/validate'));
    expect(bad.valid).toBe(false);
    expect(bad.message).not.toBe('');
    const noUrl = await withFile('.gitea/ISSUE_TEMPLATE/config.yaml', 'contact_links:\n  - name: Test\n    about: A link\n', () => g.call('repos/user2/repo1/issue_config/validate'));
    expect(noUrl.valid).toBe(false);
  });
});
