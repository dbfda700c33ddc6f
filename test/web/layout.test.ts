import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';
import { field, markdownField } from '../../src/routes/web/forms';
import { COMPRESS_FROM } from '../../src/routes/web/layout';

// What every page carries: the headers (CSP with a nonce and no inline script, referrer policy,
// nosniff), compression of the larger ones, landmarks and the skip link, the theme, the title's shape.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.stop(); });

describe('every page', () => {
  it('sends the CSP, Referrer-Policy and nosniff, and no inline script', async () => {
    const res = await s.request('explore/repos');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    for (const m of html.matchAll(/<script([^>]*)>/g)) expect(m[1]).toMatch(/ src="[^"]+" defer/);
    expect(html).not.toMatch(/ on[a-z]+="/);
    expect(html).not.toMatch(/ style="/);
  });

  it('is compressed with brotli or gzip as the browser asks once it outgrows TCP\'s initial window', async () => {
    const u = await createUser(s, 'bigpage');
    await createRepo(s, u, 'big', { auto_init: true });
    const text = Array.from({ length: 600 }, (_, i) => `Line ${i} of a long read-me.`).join('\n\n');
    await ok(await s.request('api/v1/repos/bigpage/big/contents/BIG.md', {
      method: 'POST', auth: as(u), json: { content: Buffer.from(text).toString('base64'), message: 'A long read-me' },
    }), 201);
    const get = (path: string, enc: string) => fetch(new URL(path, s.hearth.config.server.root_url), { headers: { 'Accept-Encoding': enc } });
    const big = 'bigpage/big/src/branch/main/BIG.md';
    const plain = await get(big, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.arrayBuffer()).byteLength).toBeGreaterThan(COMPRESS_FROM);
    const br = await get(big, 'br, gzip');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    const gz = await get(big, 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    // undici decodes: the body is the page either way.
    expect(await gz.text()).toContain('Line 599 of a long read-me.');
    // A small page arrives in one round trip either way: it goes as it is, still varying by encoding.
    const small = await get('explore/repos', 'br, gzip');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toContain('Accept-Encoding');
    expect((await small.arrayBuffer()).byteLength).toBeLessThan(COMPRESS_FROM);
  });

  it('sends a page as UTF-8 HTML with its length in bytes; HEAD the same headers without the body', async () => {
    const u = await createUser(s, 'lengthy');
    // Text beyond one byte a character in the page: the length counts bytes, not characters.
    await createRepo(s, u, 'wide', { auto_init: true, description: 'Grüße, 日本語 and … more' });
    const url = new URL('lengthy/wide', s.hearth.config.server.root_url);
    const get = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
    const bytes = Buffer.from(await get.arrayBuffer());
    expect(get.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(get.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.toString('utf8')).toContain('Grüße, 日本語 and … more');
    const head = await fetch(url, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('has a skip link, named landmarks and the site header', async () => {
    const u = await createUser(s, 'header');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    const html = await (await c.get('')).text();
    expect(html).toMatch(/<a class="skip" href="#main">Skip to content<\/a>/);
    expect(html).toContain('<main id="main"');
    expect(html).toMatch(/<form class="search" role="search" aria-label="Repositories" method="get" action="[^"]*explore\/repos">/);
    expect(html).toMatch(/<nav aria-label="Account">/);
    for (const path of ['repo/create', 'repo/migrate', 'org/create', 'notifications', 'header']) expect(html).toContain(`${s.hearth.config.server.root_url}${path}"`);
    expect(html).toContain('aria-label="Notifications, 0 unread"');
    expect(html).toMatch(/<form method="post" action="[^"]*user\/logout"><input type="hidden" name="_csrf" value="[^"]+"><button type="submit">Sign out<\/button><\/form>/);
  });

  it('titles repository pages "Page · owner/repo · app"', async () => {
    const u = await createUser(s, 'titled');
    await createRepo(s, u, 'proj', { auto_init: true });
    const html = await (await s.request('titled/proj/branches')).text();
    expect(html).toMatch(/<title>[^<]+ · titled\/proj · Hearth<\/title>/);
    expect(await (await s.request('titled/proj')).text()).toContain('<title>titled/proj · Hearth</title>');
  });

  it('renders the user\'s theme on the server: auto by default, dark or light when chosen', async () => {
    const u = await createUser(s, 'themed');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    expect(await (await c.get('')).text()).toContain('<html lang="en" data-theme="auto">');
    const set = await s.request('api/v1/user/settings', { method: 'PATCH', auth: { basic: [u.username, u.password] }, json: { theme: 'gitea-dark' } });
    expect(set.status).toBe(200);
    expect(await (await c.get('')).text()).toContain('<html lang="en" data-theme="dark">');
  });

  it('turns the single-key shortcuts off for a user who asked', async () => {
    const u = await createUser(s, 'nokeys');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    expect(await (await c.get('')).text()).toContain('<body data-shortcuts="on">');
    await s.hearth.db.updateTable('user').set({ keyboard_shortcuts: 0 }).where('id', '=', u.id).execute();
    expect(await (await c.get('')).text()).toContain('<body data-shortcuts="off">');
  });
});

describe('the route table by method', () => {
  it('answers GET and HEAD from the pages, POST from the forms, OPTIONS from the whole table', async () => {
    const u = await createUser(s, 'methods');
    await createRepo(s, u, 'verbs');
    const url = new URL('methods/verbs/settings', s.hearth.config.server.root_url);
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    expect((await c.get('methods/verbs/settings')).status).toBe(200);
    const head = await c.fetch('methods/verbs/settings', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // A page without a form of its own: a POST finds no route (the 404 page), the GET still answers.
    const post = await c.post('methods/verbs/releases', {}, { from: 'methods/verbs/settings' });
    expect(post.status).toBe(404);
    expect(await post.text()).toContain('Page Not Found');
    const options = await fetch(url, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect((await fetch(url, { method: 'PUT' })).status).toBe(404);
  });

  it('escapes user text whether or not it holds markup characters', () => {
    expect(field({ name: 'n', label: 'plain name', value: 'plain' }).value).toContain('value="plain"');
    expect(field({ name: 'n', label: '<b>&', value: `'"` }).value).toContain('<label for="f-n">&lt;b&gt;&amp;</label>');
    expect(field({ name: 'n', label: 'x', value: `'"` }).value).toContain('value="&#39;&quot;"');
  });
});

describe('user colours', () => {
  it('come from one style block under the page\'s CSP nonce, never a style attribute', async () => {
    const u = await createUser(s, 'painter');
    await createRepo(s, u, 'colours');
    for (const [name, color] of [['bug', '#b60205'], ['docs', '#c5def5']]) {
      const made = await s.request('api/v1/repos/painter/colours/labels', { method: 'POST', auth: { basic: [u.username, u.password] }, json: { name, color } });
      expect(made.status).toBe(201);
    }
    const res = await s.request('painter/colours/labels');
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1];
    // White text on the dark red, black on the light blue: readable either way.
    expect(html).toContain(`<style nonce="${nonce}">.c-b60205{--c:#b60205;--cfg:#fff}.c-c5def5{--c:#c5def5;--cfg:#000}</style>`);
    expect(html).toContain('<span class="label c-b60205">bug</span>');
    expect(html).not.toMatch(/ style="/);
  });
});

describe('form helpers', () => {
  it('tie a field\'s error and hint to it, keep its value and never echo a password', () => {
    const out = field({ name: 'email', label: 'E-mail', value: 'a"b@example.com', hint: 'Yours' }, { email: 'Taken' }).value;
    expect(out).toContain('<label for="f-email">E-mail</label>');
    expect(out).toContain('value="a&quot;b@example.com"');
    expect(out).toContain('aria-invalid="true" aria-describedby="f-email-hint f-email-error"');
    expect(out).toContain('<p class="error" id="f-email-error">Taken</p>');
    expect(field({ name: 'password', label: 'P', type: 'password', value: 'secret' }).value).not.toContain('secret');
  });

  it('give markdown fields a preview the script fills (hidden without it)', () => {
    const out = markdownField({ name: 'body', label: 'Comment', value: '**hi** <b>', previewUrl: '/-/markdown', context: 'o/r' }).value;
    expect(out).toContain('<textarea id="f-body" name="body">**hi** &lt;b&gt;</textarea>');
    expect(out).toContain('<button type="button" data-preview-for="f-body" data-preview-into="f-body-preview" data-preview-url="/-/markdown" data-preview-context="o/r" hidden>Preview</button>');
    expect(out).toContain('id="f-body-preview" role="region" aria-label="Preview" aria-live="polite" hidden');
  });
});
