import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_settings_test.go: the settings a client may read, each
// with Gitea's defaults.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

it('TestAPIExposedSettings', async () => {
  const ui = await g.call('settings/ui');
  expect(ui.allowed_reactions).toEqual(['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']);

  expect(await g.call('settings/api')).toEqual({
    max_response_items: 50, default_paging_num: 30, default_git_trees_per_page: 1000,
    default_max_blob_size: 10485760, default_max_response_size: 104857600,
  });

  expect(await g.call('settings/repository')).toEqual({
    mirrors_disabled: false, http_git_disabled: false, migrations_disabled: false,
    stars_disabled: false, time_tracking_disabled: false, lfs_disabled: false,
  });

  const attachment = await g.call('settings/attachment');
  expect(attachment).toEqual({ enabled: true, allowed_types: expect.any(String), max_files: 5, max_size: 2048 });
});
