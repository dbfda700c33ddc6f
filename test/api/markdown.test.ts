import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, json, startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let alice: { username: string; password: string };
let root: string;

const render = (path: string, body: unknown, auth = true) => s.request(`api/v1/${path}`, {
  method: 'POST', auth: auth ? { basic: [alice.username, alice.password] } : undefined, json: body,
});

async function html(res: Response, status = 200): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createUser(s, 'hidden', { visibility: 'private' });
  root = s.hearth.config.server.root_url;
});
afterAll(async () => { await s.stop(); });

describe('POST /markdown', () => {
  it('renders markdown as HTML with Gitea\'s heading ids and nofollow links', async () => {
    const res = await render('markdown', { Text: '# Title\n\nSome *text* and https://example.com' });
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const out = await html(res);
    expect(out).toContain('<h1 id="user-content-title">Title</h1>');
    expect(out).toContain('<em>text</em>');
    expect(out).toContain('<a href="https://example.com" rel="nofollow">https://example.com</a>');
  });

  it('keeps the user HTML Gitea allows, drops scripts, event attributes and javascript: links', async () => {
    const out = await html(await render('markdown', { text: '<script>alert(1)</script> <img src="https://example.com/a.png" onerror=alert(1)> <kbd>K</kbd> [x](javascript:alert(1))' }));
    expect(out).not.toContain('<script');
    expect(out).not.toContain('alert(1)</');
    expect(out).not.toContain('onerror');
    expect(out).toContain('<img src="https://example.com/a.png" />');
    expect(out).toContain('<kbd>K</kbd>');
    expect(out).not.toContain('href="javascript:');
  });

  it('links issue references to the context repository in gfm and comment modes', async () => {
    for (const mode of ['gfm', 'comment']) {
      const out = await html(await render('markdown', { Text: 'fixes #12 and other/repo#3, not `#4`', Mode: mode, Context: '/alice/repo' }));
      expect(out).toContain(`<a href="${root}alice/repo/issues/12" class="ref-issue" rel="nofollow">#12</a>`);
      expect(out).toContain(`<a href="${root}other/repo/issues/3" class="ref-issue" rel="nofollow">other/repo#3</a>`);
      expect(out).toContain('<code>#4</code>');
    }
  });

  it('leaves #N as text in document (markdown) mode and without a repository context', async () => {
    expect(await html(await render('markdown', { Text: 'see #12', Mode: 'markdown', Context: 'alice/repo' }))).toBe('<p>see #12</p>\n');
    expect(await html(await render('markdown', { Text: 'see #12', Mode: 'gfm' }))).toBe('<p>see #12</p>\n');
  });

  it('links mentions of existing users only, hiding private ones from others', async () => {
    const out = await html(await render('markdown', { text: 'hi @alice, @nobody and @hidden', mode: 'comment' }));
    expect(out).toContain(`<a href="${root}alice" class="mention" rel="nofollow">@alice</a>`);
    expect(out).toContain('@nobody');
    expect(out).not.toContain(`href="${root}nobody"`);
    expect(out).not.toContain(`href="${root}hidden"`);
  });

  it('renders a large document the same, while other requests are answered (regression: a 4 MB document held the server for a second)', async () => {
    const paragraph = 'Hi @alice, see #7 and [docs](guide.md): **bold** `code`.\n\n';
    const text = paragraph.repeat(Math.ceil(4_000_000 / paragraph.length));
    const order: string[] = [];
    const rendering = render('markdown', { Text: text, Mode: 'gfm', Context: '/alice/repo' }).then((res) => { order.push('markdown'); return res; });
    await new Promise((r) => setTimeout(r, 200));
    expect((await s.request('api/v1/version')).status).toBe(200);
    order.push('version');
    const out = await html(await rendering);
    expect(order).toEqual(['version', 'markdown']);
    const one = await html(await render('markdown', { Text: paragraph, Mode: 'gfm', Context: '/alice/repo' }));
    expect(one).toContain(`<a href="${root}alice" class="mention" rel="nofollow">@alice</a>`);
    expect(one).toContain(`<a href="${root}alice/repo/issues/7" class="ref-issue" rel="nofollow">#7</a>`);
    expect(out).toBe(one.repeat(text.length / paragraph.length));
  });

  it('resolves relative links against the context', async () => {
    const out = await html(await render('markdown', { Text: '[doc](docs/a.md) [abs](/x) [anchor](#top)', Context: '/alice/repo/src/branch/main' }));
    expect(out).toContain(`href="${root}alice/repo/src/branch/main/docs/a.md"`);
    expect(out).toContain('href="/x"');
    expect(out).toContain('href="#top"');
  });

  it('accepts the keys in any case, as Gitea\'s decoder does', async () => {
    for (const body of [{ Text: '**b**' }, { text: '**b**' }, { TEXT: '**b**' }]) {
      expect(await html(await render('markdown', body))).toBe('<p><strong>b</strong></p>\n');
    }
  });

  it('renders an empty body as nothing', async () => {
    expect(await html(await render('markdown', {}))).toBe('');
  });

  it('refuses an unknown mode and ill-typed fields with 422', async () => {
    const res = await render('markdown', { Text: 'x', Mode: 'unknown' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('Unknown mode: unknown');
    const bad = await render('markdown', { Text: 42 });
    expect(bad.status).toBe(422);
    expect((await json(bad)).message).toMatch(/^\[Text\]/);
  });

  it('needs a signed-in caller (401)', async () => {
    expect((await render('markdown', { Text: 'x' }, false)).status).toBe(401);
  });
});

describe('POST /markdown/raw', () => {
  it('renders a text/plain body', async () => {
    const res = await s.request('api/v1/markdown/raw', {
      method: 'POST', auth: { basic: [alice.username, alice.password] },
      headers: { 'Content-Type': 'text/plain' }, body: '## Raw text\n\n- item #1',
    });
    const out = await html(res);
    expect(out).toContain('<h2 id="user-content-raw-text">Raw text</h2>');
    expect(out).toContain('<li>item #1</li>');
  });

  it('renders a body sent without a content type', async () => {
    const res = await s.request('api/v1/markdown/raw', {
      method: 'POST', auth: { basic: [alice.username, alice.password] }, body: new Blob(['_x_']),
    });
    expect(await html(res)).toBe('<p><em>x</em></p>\n');
  });
});

describe('POST /markup', () => {
  it('renders markdown files in file mode and refuses other extensions', async () => {
    const out = await html(await render('markup', { Text: '# T', Mode: 'file', FilePath: 'doc/README.md', Context: '/alice/repo/src/branch/main' }));
    expect(out).toContain('<h1 id="user-content-t">T</h1>');
    const res = await render('markup', { Text: '# T', Mode: 'file', FilePath: 'path/test.unknown' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('Unsupported render extension: .unknown');
  });

  it('takes the deprecated Wiki flag as wiki mode', async () => {
    const out = await html(await render('markup', { text: 'see #2', wiki: true, context: 'alice/repo' }));
    expect(out).toContain(`href="${root}alice/repo/issues/2"`);
  });
});
