// A GitHub-shaped source for bench/migrate.mjs: `issues` issues with `comments` comments between
// them under /api/v3 (GitHub Enterprise Server's layout), paged by per_page/page with Link
// headers, and a one-commit repository served by git http-backend at /<owner>/<repo>.git.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { git } from './lib.mjs';

const user = (login, id) => ({ login, id, node_id: `U_${id}`, type: 'User', site_admin: false });
const at = (n) => new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
const rollup = { total_count: 0, '+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, eyes: 0, rocket: 0 };

function cgi(root, req, res, url) {
  const child = spawn('git', ['http-backend'], { env: {
    PATH: process.env.PATH, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', REQUEST_METHOD: req.method,
    PATH_INFO: decodeURIComponent(url.pathname), QUERY_STRING: url.search.slice(1), CONTENT_TYPE: req.headers['content-type'] ?? '',
    HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '', GIT_PROTOCOL: req.headers['git-protocol'] ?? '',
  } });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on('data', (chunk) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    started = true;
    for (const line of head.subarray(0, end).toString().split('\r\n')) {
      const i = line.indexOf(':');
      if (line.slice(0, i).toLowerCase() === 'status') res.statusCode = Number.parseInt(line.slice(i + 1), 10);
      else res.setHeader(line.slice(0, i), line.slice(i + 1).trim());
    }
    res.write(head.subarray(end + 4));
  });
  child.stdout.on('end', () => res.end());
}

export async function startFakeGithub(dir, { issues, comments }) {
  const bare = path.join(dir, 'root', 'owner', 'tracker.git');
  const wt = path.join(dir, 'wt');
  fs.mkdirSync(wt, { recursive: true });
  await git(wt, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(wt, 'README.md'), '# tracker\n');
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', 'initial');
  await git(dir, 'init', '-q', '--bare', '-b', 'main', bare);
  await git(wt, 'push', '-q', bare, 'main');
  // Comment i belongs to issue (i % issues) + 1, as the Gitea-shaped source's.
  const byIssue = Array.from({ length: issues }, () => []);
  for (let i = 0; i < comments; i++) byIssue[i % issues].push(i);
  let base = '';
  const page = (req, url, items) => {
    const size = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const n = Number(url.searchParams.get('page') ?? 1);
    const more = n * size < items.length;
    const next = new URL(url, base);
    next.searchParams.set('page', String(n + 1));
    return [items.slice((n - 1) * size, n * size), more ? { link: `<${next}>; rel="next"` } : {}];
  };
  const issue = (n) => ({
    id: n, node_id: `I_${n}`, number: n, title: `Issue ${n - 1}`, body: `Body of issue ${n - 1}`, user: user('root', 1), state: 'open',
    locked: false, labels: [], milestone: null, assignee: null, comments: byIssue[n - 1].length, created_at: at(n), updated_at: at(n),
    closed_at: null, author_association: 'OWNER', reactions: rollup,
  });
  const comment = (i) => ({
    id: 100000 + i, node_id: `C_${i}`, body: `Comment ${i}`, issue_url: `${base}api/v3/repos/owner/tracker/issues/${(i % issues) + 1}`, user: user('root', 1), created_at: at(issues + i), updated_at: at(issues + i),
    author_association: 'OWNER', reactions: rollup,
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, base);
    if (url.pathname.includes('.git')) return cgi(path.join(dir, 'root'), req, res, url);
    const sub = url.pathname.replace('/api/v3/repos/owner/tracker', '');
    let body;
    let headers = {};
    let m;
    if (sub === '/issues') [body, headers] = page(req, url, Array.from({ length: issues }, (_, i) => issue(i + 1)));
    else if (sub === '/issues/comments') [body, headers] = page(req, url, Array.from({ length: comments }, (_, i) => comment(i)));
    else if ((m = /^\/issues\/(\d+)\/comments$/.exec(sub))) [body, headers] = page(req, url, (byIssue[Number(m[1]) - 1] ?? []).map(comment));
    else if (sub === '/topics') body = { names: [] };
    else if (['/labels', '/milestones', '/pulls', '/releases'].includes(sub)) body = [];
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600), ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/`;
  return { cloneAddr: `${base}owner/tracker.git`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
