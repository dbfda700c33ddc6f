import { describe, expect, it } from 'vitest';
import { BadRequestError, InvalidError } from '../../src/lib/errors';
import {
  buildRequest, hookConfigView, parseHookConfig, parseHookType,
  type HookEvent, type HookMeta, type HookTarget, type HookType,
} from '../../src/services/webhook/formats';

// Payloads in Gitea's API JSON shapes (modules/structs/hook.go), modelled on Gitea's own webhook tests.
const APP = 'http://localhost:3000';
const sender = { id: 1, login: 'user1', full_name: 'User One', avatar_url: `${APP}/avatars/1`, html_url: `${APP}/user1` };
const repository = { id: 1, name: 'repo', full_name: 'test/repo', html_url: `${APP}/test/repo` };
const SHA = '2020558fe2e34debb818a514715839cabd25e778';
const COMMIT_URL = `${APP}/test/repo/commit/${SHA}`;
const COMPARE_URL = `${APP}/test/repo/compare/2020558fe2...2020558fe2`;
const commit = {
  id: SHA, message: 'commit message\n', url: COMMIT_URL,
  author: { name: 'user1', email: 'user1@localhost', username: 'user1' },
  committer: { name: 'user1', email: 'user1@localhost', username: 'user1' },
  verification: null, timestamp: '2024-01-01T00:00:00Z', added: [], removed: [], modified: ['README.md'],
};
const push = {
  ref: 'refs/heads/test', before: '2020558fe2e34debb818a514715839cabd25e777', after: SHA, compare_url: COMPARE_URL,
  commits: [commit, commit], total_commits: 2, head_commit: commit, repository, pusher: sender, sender,
};
const ISSUE_URL = `${APP}/test/repo/issues/2`;
const issues = {
  action: 'opened', number: 2,
  issue: {
    id: 7, url: `${APP}/api/v1/repos/test/repo/issues/2`, html_url: ISSUE_URL, number: 2, user: sender,
    title: 'crash', body: 'issue body', assignees: [sender], milestone: null, state: 'open',
  },
  repository, sender, commit_id: '',
};

function hook(type: HookType, meta: HookMeta = {}, extra: Partial<HookTarget> = {}): HookTarget {
  return { type, url: 'https://hooks.example.com/in?token=abc', httpMethod: 'POST', contentType: 'json', meta, ...extra };
}

function send(target: HookTarget, event: HookEvent, payload: object) {
  const req = buildRequest(target, event, payload as Record<string, unknown>);
  if (!req) throw new Error('expected a request');
  return { req, body: JSON.parse(req.body) };
}

function expectChatPost(req: { url: string; method: string; contentType: string; defaultHeaders: boolean }) {
  expect(req.url).toBe('https://hooks.example.com/in?token=abc');
  expect(req.method).toBe('POST');
  expect(req.contentType).toBe('application/json');
  expect(req.defaultHeaders).toBe(true);
}

const commitLines = (sep: string) => [1, 2].map(() => `[2020558](${COMMIT_URL}) commit message - user1`).join(sep);

describe('gitea and gogs hooks send the payload itself', () => {
  const payload = { ...issues, issue: { ...issues.issue, body: 'a <b> & c' } };

  it('as indented JSON with Go\'s HTML escaping', () => {
    for (const type of ['gitea', 'gogs'] as const) {
      const req = buildRequest(hook(type), 'issues', payload)!;
      expect(req).toMatchObject({ url: 'https://hooks.example.com/in?token=abc', method: 'POST', contentType: 'application/json' });
      expect(req.body.startsWith('{\n  "action": "opened",\n  "number": 2,')).toBe(true);
      expect(req.body).toContain('"body": "a \\u003cb\\u003e \\u0026 c"');
      expect(JSON.parse(req.body)).toEqual(payload);
      expect(req.signedBody).toBe(req.body);
    }
  });

  it('as the form field `payload`', () => {
    const req = buildRequest(hook('gitea', {}, { contentType: 'form' }), 'issues', payload)!;
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(req.body.startsWith('payload=%7B%0A++%22action%22')).toBe(true);
    const field = new URLSearchParams(req.body).get('payload')!;
    expect(field).toBe(req.signedBody);
    expect(JSON.parse(field)).toEqual(payload);
  });

  it('in the query string for GET, existing parameters sorted in', () => {
    const target = hook('gitea', {}, { httpMethod: 'GET', url: 'https://hooks.example.com/in?z=1&a=x+y#frag' });
    const req = buildRequest(target, 'push', push)!;
    expect(req.method).toBe('GET');
    expect(req.body).toBe('');
    expect(req.contentType).toBe('');
    expect(req.url.startsWith('https://hooks.example.com/in?a=x+y&payload=%7B%0A')).toBe(true);
    expect(req.url.endsWith('&z=1#frag')).toBe(true);
    const query = new URL(req.url).searchParams;
    expect(JSON.parse(query.get('payload')!)).toEqual(push);
    expect(req.signedBody).toBe(query.get('payload'));
  });

  it('sends a push without commits, and nothing for a method Gitea does not know', () => {
    expect(buildRequest(hook('gitea'), 'push', { ...push, commits: [], total_commits: 0 })).not.toBeNull();
    expect(buildRequest(hook('gitea', {}, { httpMethod: 'PUT' }), 'push', push)).toBeNull();
  });
});

describe('slack', () => {
  const meta = { channel: '#dev', username: 'gitea', icon_url: 'https://img.example/i.png', color: '#ff0000' };

  it('push: a line linking repo, branch and compare, commits in an attachment', () => {
    const { req, body } = send(hook('slack', meta), 'push', push);
    expectChatPost(req);
    expect(body).toMatchObject({ channel: '#dev', username: 'gitea', icon_url: 'https://img.example/i.png', unfurl_links: 0 });
    expect(body.text).toBe(`[<${APP}/test/repo|test/repo>:<${APP}/test/repo/src/branch/test|test>] `
      + `<${COMPARE_URL}|2 new commits> pushed by user1`);
    const line = `<${COMMIT_URL}|2020558>: commit message - user1`;
    expect(body.attachments).toEqual([
      { fallback: '', color: '#ff0000', title: `${APP}/test/repo`, title_link: `${APP}/test/repo`, text: `${line}\n${line}` },
    ]);
  });

  it('issue opened: the sentence, and the body as an attachment', () => {
    const { body } = send(hook('slack', meta), 'issues', issues);
    expect(body.text).toBe(`[<${APP}/test/repo|test/repo>] Issue opened: <${ISSUE_URL}|#2 crash> by <${APP}/user1|user1>`);
    expect(body.attachments).toEqual([{ fallback: '', color: 'eb6420', title: '#2 crash', title_link: ISSUE_URL, text: 'issue body' }]);
    const closed = send(hook('slack', meta), 'issues', { ...issues, action: 'closed' }).body;
    expect(closed.attachments).toBeNull();
  });

  it('review: the verb comes from the event', () => {
    const pr = { id: 12, number: 12, url: `${APP}/test/repo/pulls/12`, html_url: `${APP}/test/repo/pulls/12`, title: 'Fix bug', body: '', user: sender };
    const payload = { action: 'reviewed', number: 12, pull_request: pr, review: { type: 'pull_request_review_approved', content: 'ok' }, repository, sender };
    const { body } = send(hook('slack', meta), 'pull_request_review_approved', payload);
    expect(body.text).toBe(`[<${APP}/test/repo|test/repo>] Pull request review approved: [#12 Fix bug](${APP}/test/repo/pulls/12) by <${APP}/user1|user1>`);
  });
});

describe('discord', () => {
  it('push: one embed titled with the branch and the count, linking the comparison', () => {
    const { req, body } = send(hook('discord', { username: 'bot', icon_url: 'https://img.example/b.png' }), 'push', push);
    expectChatPost(req);
    expect(body).toMatchObject({ wait: false, content: '', username: 'bot', avatar_url: 'https://img.example/b.png', tts: false });
    expect(body.embeds).toEqual([{
      title: '[test/repo:test] 2 new commits', description: commitLines('\n'), url: COMPARE_URL, color: 0x1ac600,
      footer: { text: '' }, author: { name: 'user1', url: `${APP}/user1`, icon_url: `${APP}/avatars/1` }, fields: null,
    }]);
  });

  it('issue opened: the sentence as title, the body as description', () => {
    const { body } = send(hook('discord'), 'issues', issues);
    expect(body.avatar_url).toBeUndefined();
    expect(body.embeds[0]).toMatchObject({
      title: '[test/repo] Issue opened: #2 crash', description: 'issue body', url: ISSUE_URL, color: 0xeb6420,
    });
  });
});

describe('dingtalk', () => {
  const link = (url: string) => `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${encodeURIComponent(url)}`;

  it('push: an action card linking the comparison', () => {
    const { req, body } = send(hook('dingtalk'), 'push', push);
    expectChatPost(req);
    expect(body.msgtype).toBe('actionCard');
    expect(body.actionCard).toEqual({
      text: commitLines('\r\n'), title: '[test/repo:test] 2 new commits', hideAvatar: '0', btnOrientation: '',
      singleTitle: 'view commits', singleURL: link(COMPARE_URL), btns: null,
    });
  });

  it('issue opened: titled with the issue, the sentence and body as text', () => {
    const { body } = send(hook('dingtalk'), 'issues', issues);
    expect(body.actionCard).toMatchObject({
      title: '#2 crash', text: '[test/repo] Issue opened: #2 crash by user1\r\n\r\nissue body',
      singleTitle: 'view issue', singleURL: link(ISSUE_URL),
    });
  });
});

describe('telegram', () => {
  const a = (url: string, text: string) => `<a href="${url}" rel="nofollow">${text}</a>`;

  it('push: HTML with links, one line per commit', () => {
    const { req, body } = send(hook('telegram', { bot_token: '1:x', chat_id: '5' }), 'push', push);
    expectChatPost(req);
    const line = `[${a(COMMIT_URL, '2020558')}] commit message - user1`;
    expect(body).toEqual({
      text: `[${a(`${APP}/test/repo`, 'test/repo')}:${a(COMPARE_URL, 'test')}] 2 new commits\n${line}\n${line}`,
      parse_mode: 'HTML', disable_web_page_preview: true,
    });
  });

  it('issue opened: the sentence, then the escaped body', () => {
    const payload = { ...issues, issue: { ...issues.issue, title: 'it\'s <broken>', body: 'see <script>' } };
    const { body } = send(hook('telegram'), 'issues', payload);
    expect(body.text).toBe(`[${a(`${APP}/test/repo`, 'test/repo')}] Issue opened: `
      + `${a(ISSUE_URL, '#2 it&#39;s &lt;broken&gt;')} by ${a(`${APP}/user1`, 'user1')}\n\nsee &lt;script&gt;`);
  });
});

describe('msteams', () => {
  it('push: a MessageCard with the commits and their count', () => {
    const { req, body } = send(hook('msteams'), 'push', push);
    expectChatPost(req);
    expect(body).toEqual({
      '@type': 'MessageCard', '@context': 'https://schema.org/extensions', themeColor: '1ac600',
      title: '[test/repo:test] 2 new commits', summary: '[test/repo:test] 2 new commits',
      sections: [{
        activityTitle: 'User One', activitySubtitle: 'user1', activityImage: `${APP}/avatars/1`,
        facts: [{ name: 'Repository:', value: 'test/repo' }, { name: 'Commit count:', value: '2' }],
        text: commitLines('\n\n'),
      }],
      potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: COMPARE_URL }] }],
    });
  });

  it('issue opened: the issue\'s id as fact, as Gitea shows it', () => {
    const { body } = send(hook('msteams'), 'issues', issues);
    expect(body).toMatchObject({ title: '[test/repo] Issue opened: #2 crash', themeColor: 'eb6420' });
    expect(body.sections[0].text).toBe('issue body');
    expect(body.sections[0].facts).toEqual([{ name: 'Repository:', value: 'test/repo' }, { name: 'Issue #:', value: '7' }]);
  });
});

describe('feishu', () => {
  it('push: the branch line (without a count, as Gitea) and the commits', () => {
    const { req, body } = send(hook('feishu'), 'push', push);
    expectChatPost(req);
    expect(body).toEqual({ msg_type: 'text', content: { text: `[test/repo:test] \r\n${commitLines('\r\n')}` } });
  });

  it('issue opened: title, link, author, operator and assignees lines, then the body', () => {
    const { body } = send(hook('feishu'), 'issues', issues);
    expect(body.content.text).toBe(`[Issue-test/repo #2]: opened\ncrash\n${ISSUE_URL}\nIssue by user1\nOperator: user1\n`
      + 'Assignees: user1\n\nissue body');
  });
});

describe('wechatwork', () => {
  it('push: a markdown title and the commits in coloured quotes', () => {
    const { req, body } = send(hook('wechatwork'), 'push', push);
    expectChatPost(req);
    const line = ` > [2020558](${COMMIT_URL}) \r\n ><font color="info">commit message\n</font> \n ><font color="warning">Author: user1</font>`;
    expect(body).toEqual({
      msgtype: 'markdown', text: { content: '', mentioned_list: null, mentioned_mobile_list: null },
      markdown: { content: `# test/repo:test <font color="warning">    </font>\r\n\r\n${line}\n${line}` },
    });
  });

  it('issue opened: the sentence, the body, the title and the link', () => {
    const { body } = send(hook('wechatwork'), 'issues', issues);
    expect(body.markdown.content).toBe(' ><font color="info">[test/repo] Issue opened: #2 crash by user1</font>\n >issue body \n'
      + ` ><font color="warning"> #2 crash</font> \n [${ISSUE_URL}](${ISSUE_URL})`);
  });
});

describe('packagist', () => {
  it('posts the package URL for any event, without Gitea\'s headers', () => {
    const target = hook('packagist', { username: 'me', api_token: 'tok', package_url: 'https://packagist.org/packages/me/pkg' });
    for (const [event, payload] of [['push', push], ['issues', issues]] as const) {
      const { req, body } = send(target, event, payload);
      expect(req).toMatchObject({ url: target.url, method: 'POST', contentType: 'application/json', defaultHeaders: false });
      expect(body).toEqual({ repository: { url: 'https://packagist.org/packages/me/pkg' } });
    }
  });
});

describe('what Gitea does not send', () => {
  it('no push without commits to chat services', () => {
    for (const type of ['slack', 'discord', 'telegram', 'packagist'] as const) {
      expect(buildRequest(hook(type), 'push', { ...push, commits: [], total_commits: 0 })).toBeNull();
    }
  });

  it('nothing for an event a format cannot convert', () => {
    expect(buildRequest(hook('slack'), 'unknown' as HookEvent, issues)).toBeNull();
  });
});

describe('parseHookConfig', () => {
  const expectInvalid = (fn: () => unknown, message: string) => {
    expect(fn).toThrow(InvalidError);
    expect(fn).toThrow(message);
  };

  it('accepts Gitea\'s config and answers POST', () => {
    expect(parseHookConfig('gitea', { url: 'https://ci.example.com/hook', content_type: 'json', secret: 's' }))
      .toEqual({ url: 'https://ci.example.com/hook', contentType: 'json', httpMethod: 'POST', meta: {} });
    expect(parseHookConfig('gogs', { url: 'http://ci.example.com:8080/h', content_type: 'form' }).contentType).toBe('form');
  });

  it('rejects missing or bad url and content_type with Gitea\'s messages', () => {
    expectInvalid(() => parseHookConfig('gitea', { content_type: 'json' }), 'Missing config option: url');
    expectInvalid(() => parseHookConfig('gitea', { url: 'https://x.example' }), 'Missing config option: content_type');
    expectInvalid(() => parseHookConfig('gitea', { url: 'https://x.example', content_type: 'xml' }), 'Invalid content type');
    for (const url of ['', 'ftp://x.example/h', 'not a url', '/relative', ' https://x.example']) {
      expectInvalid(() => parseHookConfig('gitea', { url, content_type: 'json' }), 'Invalid url');
    }
  });

  it('slack needs a valid channel', () => {
    const base = { url: 'https://hooks.slack.com/services/x', content_type: 'json' };
    expectInvalid(() => parseHookConfig('slack', base), 'Missing config option: channel');
    const bad = () => parseHookConfig('slack', { ...base, channel: 'Not Valid' });
    expect(bad).toThrow(BadRequestError);
    expect(bad).toThrow('Invalid slack channel name');
    expect(parseHookConfig('slack', { ...base, channel: ' #dev ', username: 'gitea' }).meta)
      .toEqual({ channel: '#dev', username: 'gitea', icon_url: '', color: '' });
  });

  it('keeps the settings of the other types, and never the secret', () => {
    const telegram = parseHookConfig('telegram', {
      url: 'https://api.telegram.org/bot1:x/sendMessage?chat_id=5', content_type: 'json', bot_token: '1:x', chat_id: '5', secret: 's',
    });
    expect(telegram.meta).toEqual({ bot_token: '1:x', chat_id: '5' });
    expect(parseHookConfig('discord', { url: 'https://discord.example/w', content_type: 'json', username: 'bot' }).meta)
      .toEqual({ username: 'bot' });
  });

  it('edits only what is given', () => {
    const current = parseHookConfig('slack', { url: 'https://a.example/h', content_type: 'json', channel: 'dev', color: 'red' });
    expect(parseHookConfig('slack', { content_type: 'form' }, current))
      .toEqual({ ...current, contentType: 'form' });
    expect(parseHookConfig('slack', { channel: 'ops' }, current).meta).toEqual({ channel: 'ops', username: '', icon_url: '', color: '' });
    expectInvalid(() => parseHookConfig('slack', { url: 'mailto:x@y' }, current), 'Invalid url');
    const get = { ...parseHookConfig('gitea', { url: 'https://a.example/h', content_type: 'json' }), httpMethod: 'GET' as const };
    expect(parseHookConfig('gitea', { url: 'https://b.example/h' }, get)).toMatchObject({ url: 'https://b.example/h', httpMethod: 'GET' });
  });

  it('knows the hook types', () => {
    expect(parseHookType('wechatwork')).toBe('wechatwork');
    expectInvalid(() => parseHookType('matrix'), 'Invalid hook type: matrix');
  });
});

describe('hookConfigView', () => {
  it('shows url and content_type, and slack\'s settings', () => {
    expect(hookConfigView('gitea', 'https://ci.example.com/hook', 'json', 'POST', {}))
      .toEqual({ content_type: 'json', url: 'https://ci.example.com/hook' });
    expect(hookConfigView('slack', 'https://hooks.slack.com/x', 'json', 'POST', { channel: '#dev', username: 'g', icon_url: '', color: 'red' }))
      .toEqual({ channel: '#dev', color: 'red', content_type: 'json', icon_url: '', url: 'https://hooks.slack.com/x', username: 'g' });
  });

  it('never shows secrets or tokens', () => {
    const views = [
      hookConfigView('telegram', 'https://api.telegram.org/x', 'json', 'POST', { bot_token: 'BOT', chat_id: '5' }),
      hookConfigView('packagist', 'https://packagist.org/api/update-package', 'json', 'POST', { username: 'me', api_token: 'TOK', package_url: 'p' }),
      hookConfigView('gitea', 'https://ci.example.com/hook', 'form', 'POST', { secret: 'SECRET' }),
    ];
    for (const view of views) {
      expect(Object.keys(view)).not.toContain('secret');
      expect(JSON.stringify(view)).not.toMatch(/BOT|TOK|SECRET/);
    }
  });
});
