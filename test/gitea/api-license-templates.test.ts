import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_license_templates_test.go. Gitea compares with its own template files;
// here the template read back must be the one the list names, with content.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_license_templates_test', () => {
  it('TestAPIListLicenseTemplates', async () => {
    const list = (await g.call('licenses')) as { key: string; name: string; url: string }[];
    expect(list.length).toBeGreaterThan(0);
    for (const l of list.slice(0, 5)) expect(typeof l.key).toBe('string');
  });

  it('TestAPIGetLicenseTemplateInfo', async () => {
    const [first] = (await g.call('licenses')) as { key: string }[];
    const info = await g.call(`licenses/${encodeURIComponent(first!.key)}`);
    expect(info).toMatchObject({ key: first!.key, name: first!.key });
    expect(info.body.length).toBeGreaterThan(0);
  });
});
