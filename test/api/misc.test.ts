import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.stop(); });

describe('miscellaneous and settings', () => {
  it('GET /version answers a Gitea-comparable version', async () => {
    const res = await s.request('api/v1/version');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'ServerVersion');
    expect(body.version).toMatch(/^1\.25\.4\+hearth-/);
  });

  it.each([
    ['api', 'GeneralAPISettings'],
    ['attachment', 'GeneralAttachmentSettings'],
    ['repository', 'GeneralRepoSettings'],
    ['ui', 'GeneralUISettings'],
  ])('GET /settings/%s matches %s', async (area, def) => {
    const res = await s.request(`api/v1/settings/${area}`);
    expect(res.status).toBe(200);
    expectShape(await json(res), def);
  });

  it('settings/api reflects the configuration', async () => {
    const body = await json(await s.request('api/v1/settings/api'));
    expect(body).toMatchObject({ default_paging_num: 30, max_response_items: 50, default_git_trees_per_page: 1000 });
  });

  it('GET /api/healthz checks the database', async () => {
    const res = await s.request('api/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/health\+json/);
    const body = await json(res);
    expect(body.status).toBe('pass');
    expect(body.checks['database:ping'][0].status).toBe('pass');
  });

  it('serves its own swagger document and UI', async () => {
    const spec = await json(await s.request('swagger.v1.json'));
    expect(spec.swagger).toBe('2.0');
    expect(spec.basePath).toBe('/api/v1');
    expect(spec.paths['/users/{username}/tokens'].post.operationId).toBe('userCreateToken');
    const ui = await s.request('api/swagger');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger.v1.json');
    const js = await s.request('api/swagger/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('answers unknown /api/v1 routes with a JSON 404', async () => {
    const res = await s.request('api/v1/no/such/route');
    expect(res.status).toBe(404);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['message', 'url']);
  });
});

describe('swagger disabled', () => {
  it('does not serve the document when enable_swagger is false', async () => {
    const t = await startTestServer({ HEARTH__API__ENABLE_SWAGGER: 'false' });
    try {
      expect((await t.request('swagger.v1.json')).status).toBe(404);
      expect((await t.request('api/swagger')).status).toBe(404);
    } finally {
      await t.stop();
    }
  });
});
