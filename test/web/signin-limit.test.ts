import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { basicHeader, createUser, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// Per client address, 10 failed sign-ins in 5 minutes answer 429 with Retry-After, on the web
// form and on Basic auth alike (the API, git over HTTP, LFS, the package registries), even for
// the right password; a server of its own for each test, as the counts are the server's.

let s: TestServer;
beforeEach(async () => { s = await startTestServer(); });
afterEach(async () => { await s.stop(); });

async function failTenTimes(attempt: () => Promise<Response>, status: number): Promise<void> {
  for (let i = 0; i < 10; i++) expect((await attempt()).status, `attempt ${i + 1}`).toBe(status);
}

describe('the sign-in limiter', () => {
  it('answers the web form 429 with Retry-After after 10 failures, even with the right password', async () => {
    const u = await createUser(s, 'guessed');
    const c = new WebClient(s);
    const token = await c.csrfOf('user/login');
    await failTenTimes(() => c.post('user/login', { user_name: 'guessed', password: 'wrong' }, { csrf: token }), 422);
    const res = await c.post('user/login', { user_name: 'guessed', password: u.password }, { csrf: token });
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(300);
    expect(await res.text()).toContain('too many failed sign-in attempts');
    expect(c.cookies.has('hearth_session')).toBe(false);
    // Basic auth from the same address is held back too: one limiter for every door.
    const api = await s.request('api/v1/user', { headers: { Authorization: basicHeader('guessed', u.password) } });
    expect(api.status).toBe(429);
    expect(api.headers.get('retry-after')).toBeTruthy();
    expect(((await api.json()) as { message: string }).message).toContain('too many failed sign-in attempts');
  });

  it('counts Basic failures on the API and answers git over HTTP 429 after them', async () => {
    const u = await createUser(s, 'gitter');
    await createRepo(s, u, 'code');
    await failTenTimes(() => s.request('api/v1/user', { headers: { Authorization: basicHeader('gitter', 'nope') } }), 401);
    const git = await s.request('gitter/code.git/info/refs?service=git-upload-pack', { headers: { Authorization: basicHeader('gitter', u.password) } });
    expect(git.status).toBe(429);
    expect(git.headers.get('retry-after')).toBeTruthy();
    const lfs = await s.request('gitter/code.git/info/lfs/objects/batch', {
      method: 'POST', headers: { Authorization: basicHeader('gitter', u.password), Accept: 'application/vnd.git-lfs+json', 'Content-Type': 'application/vnd.git-lfs+json' },
      body: JSON.stringify({ operation: 'download', objects: [] }),
    });
    expect(lfs.status).toBe(429);
    const pkg = await s.request('api/packages/gitter/generic/x/1/f.txt', { headers: { Authorization: basicHeader('gitter', u.password) } });
    expect(pkg.status).toBe(429);
  });

  it('lets tokens and sessions through: only password attempts are limited', async () => {
    const u = await createUser(s, 'holder');
    const c = new WebClient(s);
    await c.signIn('holder', u.password);
    await failTenTimes(() => s.request('api/v1/user', { headers: { Authorization: basicHeader('holder', 'nope') } }), 401);
    expect((await c.get('')).status).toBe(200);
  });
});
