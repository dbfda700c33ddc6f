import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_label_templates_test.go. Gitea compares with its own template files;
// here the template read back must be the one the list names, with content.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_label_templates_test', () => {
  it('TestAPIListLabelTemplates', async () => {
    const list = (await g.call('label/templates')) as string[];
    expect(list).toEqual(expect.arrayContaining(['Advanced', 'Default']));
  });

  it('TestAPIGetLabelTemplateInfo', async () => {
    const [first] = (await g.call('label/templates')) as string[];
    const labels = (await g.call(`label/templates/${encodeURIComponent(first!)}`)) as { name: string; color: string; exclusive: boolean }[];
    expect(labels.length).toBeGreaterThan(0);
    // Colors without their "#", as Gitea trims them.
    for (const l of labels) expect(l.color).toMatch(/^[0-9a-fA-F]{6}$/);
  });
});
