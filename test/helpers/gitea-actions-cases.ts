import { expect, it } from 'vitest';
import type { Auth } from './server';
import type { GiteaFixtures } from './gitea-fixtures';

// The cases Gitea's tests run on Actions variables and secrets at each level (repository, user,
// organization): one table, the level given by the path prefix of its routes.

type Level = {
  /** The Gitea test's name (TestAPIRepoVariables ...). */
  test: string;
  g: () => GiteaFixtures;
  /** `.../actions` under /api/v1, built with what it needs. */
  base: () => Promise<string>;
  auth: () => Promise<Auth>;
};

const status = async (g: GiteaFixtures, path: string, init: Parameters<GiteaFixtures['api']>[1]) => (await g.api(path, init)).status;

/** Gitea's Create/Update/Delete variable steps, named as its subtests are. */
export function variableTests(l: Level, names: { create: string; update: string; remove: string }): void {
  it(`${l.test}/${names.create}`, async () => {
    const [base, auth] = [await l.base(), await l.auth()];
    const cases: [string, number][] = [
      ['-', 400], ['_', 201], ['TEST_VAR', 201], ['test_var', 409], ['ci', 400],
      ['123var', 400], ['var@test', 400], ['github_var', 400], ['gitea_var', 400],
    ];
    for (const [name, want] of cases) {
      expect(await status(l.g(), `${base}/variables/${name}`, { method: 'POST', auth, json: { value: 'value' } }), name).toBe(want);
    }
  });

  it(`${l.test}/${names.update}`, async () => {
    const [base, auth] = [await l.base(), await l.auth()];
    const g = l.g();
    expect(await status(g, `${base}/variables/test_update_var`, { method: 'POST', auth, json: { value: 'initial_val' } })).toBe(201);
    const cases: [string, string, number][] = [
      ['not_found_var', '', 404], ['test_update_var', '1invalid', 400], ['test_update_var', 'invalid@name', 400],
      ['test_update_var', 'ci', 400], ['test_update_var', 'updated_var_name', 204], ['test_update_var', '', 404],
      ['updated_var_name', '', 204],
    ];
    for (const [name, rename, want] of cases) {
      const json = { name: rename, value: 'updated_val' };
      expect(await status(g, `${base}/variables/${name}`, { method: 'PUT', auth, json }), `${name} -> ${rename}`).toBe(want);
    }
  });

  it(`${l.test}/${names.remove}`, async () => {
    const [base, auth] = [await l.base(), await l.auth()];
    const url = `${base}/variables/test_delete_var`;
    expect(await status(l.g(), url, { method: 'POST', auth, json: { value: 'initial_val' } })).toBe(201);
    expect(await status(l.g(), url, { method: 'DELETE', auth })).toBe(204);
    expect(await status(l.g(), url, { method: 'DELETE', auth })).toBe(404);
  });
}

/** Gitea's Create/Update/Delete secret steps. */
export function secretTests(l: Level): void {
  it(`${l.test}/Create`, async () => {
    const [base, auth] = [await l.base(), await l.auth()];
    const cases: [string, number][] = [
      ['', 404], ['-', 400], ['_', 201], ['secret', 201], ['2secret', 400], ['GITEA_secret', 400], ['GITHUB_secret', 400],
    ];
    for (const [name, want] of cases) {
      expect(await status(l.g(), `${base}/secrets/${name}`, { method: 'PUT', auth, json: { data: 'data' } }), name).toBe(want);
    }
  });

  it(`${l.test}/Update`, async () => {
    const [base, auth] = [await l.base(), await l.auth()];
    const url = `${base}/secrets/update_secret`;
    await status(l.g(), url, { method: 'DELETE', auth });
    expect(await status(l.g(), url, { method: 'PUT', auth, json: { data: 'initial' } })).toBe(201);
    expect(await status(l.g(), url, { method: 'PUT', auth, json: { data: 'changed' } })).toBe(204);
  });

  it(`${l.test}/Delete`, async () => {
    const [base, auth] = [await l.base(), await l.auth()];
    const url = `${base}/secrets/delete_secret`;
    expect(await status(l.g(), url, { method: 'PUT', auth, json: { data: 'initial' } })).toBe(201);
    expect(await status(l.g(), url, { method: 'DELETE', auth })).toBe(204);
    expect(await status(l.g(), url, { method: 'DELETE', auth })).toBe(404);
    expect(await status(l.g(), `${base}/secrets/000`, { method: 'DELETE', auth })).toBe(400);
  });
}
