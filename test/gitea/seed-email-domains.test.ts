import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { WebClient } from '../helpers/web-client';

// [service] email_domain_allowlist / email_domain_blocklist, as Gitea's EMAIL_DOMAIN_ALLOWLIST
// and EMAIL_DOMAIN_BLOCKLIST: glob patterns of domains. Self sign-up and added addresses are
// refused outside them (Gitea's ValidateEmail); a site admin's creation or edit goes through
// with an X-Gitea-Warning header (Gitea's ValidateEmailForAdmin and the admin routes' warning).

const signUp = (g: GiteaFixtures, name: string, email: string) =>
  new WebClient(g.s).post('user/sign_up', { user_name: name, email, password: 'long-enough-1', retype: 'long-enough-1' });

describe('email_domain_blocklist', () => {
  let g: GiteaFixtures;
  beforeAll(async () => {
    g = await startGitea({ HEARTH__SERVICE__EMAIL_DOMAIN_BLOCKLIST: 'blocked.example, *.Spam.test', HEARTH__SERVICE__DISABLE_REGISTRATION: 'false' });
  }, 120_000);
  afterAll(async () => { await g.stop(); });

  it('refuses sign-ups from a listed domain (globs, any case), takes the others', async () => {
    for (const email of ['a@blocked.example', 'b@mail.spam.test', 'c@MAIL.SPAM.TEST']) {
      const res = await signUp(g, `refused${email[0]}`, email);
      expect(res.status, email).toBe(422);
      expect(await res.text()).toContain('not allowed to sign up');
    }
    expect((await signUp(g, 'welcome', 'welcome@fine.example')).status).toBe(303);
    expect((await signUp(g, 'subdomain', 'x@sub.blocked.example')).status).toBe(303);
  });

  it('refuses added addresses from a listed domain (422), takes the others', async () => {
    const auth = await g.basic('user2');
    const res = await g.api('user/emails', { method: 'POST', auth, json: { emails: ['extra@blocked.example'] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe('Email address "extra@blocked.example" invalid');
    const ok = await g.call('user/emails', { method: 'POST', auth, json: { emails: ['extra@fine.example'] } }, 201);
    expect(ok.map((e: { email: string }) => e.email)).toContain('extra@fine.example');
  });

  it('lets a site admin create and edit users there, with a warning header', async () => {
    const auth = await g.basic('user1');
    const res = await g.api('admin/users', {
      method: 'POST', auth, json: { username: 'warned', email: 'w@blocked.example', password: 'long-enough-1', must_change_password: false },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-gitea-warning')).toContain('w@blocked.example');
    const fine = await g.api('admin/users', {
      method: 'POST', auth, json: { username: 'unwarned', email: 'u@fine.example', password: 'long-enough-1', must_change_password: false },
    });
    expect(fine.status).toBe(201);
    expect(fine.headers.get('x-gitea-warning')).toBeNull();
    const edit = await g.api('admin/users/unwarned', { method: 'PATCH', auth, json: { login_name: 'unwarned', source_id: 0, email: 'u@blocked.example' } });
    expect(edit.status).toBe(200);
    expect(edit.headers.get('x-gitea-warning')).toContain('u@blocked.example');
  });
});

describe('email_domain_allowlist', () => {
  let g: GiteaFixtures;
  beforeAll(async () => {
    // A non-empty allowlist wins: the blocklist is not read.
    g = await startGitea({
      HEARTH__SERVICE__EMAIL_DOMAIN_ALLOWLIST: 'corp.example,*.corp.example', HEARTH__SERVICE__EMAIL_DOMAIN_BLOCKLIST: 'corp.example',
      HEARTH__SERVICE__DISABLE_REGISTRATION: 'false',
    });
  }, 120_000);
  afterAll(async () => { await g.stop(); });

  it('admits only the listed domains', async () => {
    expect((await signUp(g, 'insider', 'i@corp.example')).status).toBe(303);
    expect((await signUp(g, 'branch', 'b@eu.corp.example')).status).toBe(303);
    expect((await signUp(g, 'outsider', 'o@elsewhere.example')).status).toBe(422);
    const auth = await g.basic('user2');
    expect((await g.api('user/emails', { method: 'POST', auth, json: { emails: ['more@elsewhere.example'] } })).status).toBe(422);
    expect((await g.api('user/emails', { method: 'POST', auth, json: { emails: ['more@corp.example'] } })).status).toBe(201);
  });
});
