import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_gitignore_templates_test.go. Gitea compares with its own template files;
// here the template read back must be the one the list names, with content.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_gitignore_templates_test', () => {
  it('TestAPIListGitignoresTemplates', async () => {
    const list = await g.call('gitignore/templates');
    expect(Array.isArray(list) && list.every((n: unknown) => typeof n === 'string')).toBe(true);
    expect(list.length).toBeGreaterThan(0);
  });

  it('TestAPIGetGitignoreTemplateInfo', async () => {
    const [first] = (await g.call('gitignore/templates')) as string[];
    const info = await g.call(`gitignore/templates/${encodeURIComponent(first!)}`);
    expect(info.name).toBe(first);
    expect(info.source.length).toBeGreaterThan(0);
  });
});
