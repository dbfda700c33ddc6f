import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for another forge, on loopback: its git repositories served by the real
// `git http-backend` (behind HTTP basic auth when `gitAuth` is given), an LFS server for the
// objects it is handed (batch API at <repo>.git/info/lfs), and everything else answered by the
// test's own API handler. `die()` makes every later API call fail at the socket, as a source
// that went away mid-migration; `requests` records what was asked.

export type ApiRequest = { method: string; url: URL; headers: http.IncomingHttpHeaders; body: string };
export type ApiReply = { status?: number; headers?: Record<string, string>; body?: unknown; raw?: Buffer | string };
export type ApiHandler = (req: ApiRequest) => ApiReply | undefined | Promise<ApiReply | undefined>;

export type FakeForge = {
  base: string; host: string; requests: ApiRequest[];
  die: () => void;
  /** Dies once `when` holds for an API request (that request fails already). */
  dieWhen: (when: (req: ApiRequest) => boolean) => void;
  close: () => Promise<void>;
};

export type FakeForgeOptions = {
  reposDir: string; api: ApiHandler;
  /** username:password git must present (the importer's credentials reach git). */
  gitAuth?: { username: string; password: string };
  lfs?: Map<string, Buffer>;
  /** Paths git http-backend answers (default: those with a `.git` segment). */
  gitPath?: RegExp;
};

function cgi(reposDir: string, req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: reposDir, GIT_HTTP_EXPORT_ALL: '1', REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: req.method, PATH_INFO: decodeURIComponent(url.pathname), QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '', HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
    },
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    started = true;
    for (const line of head.subarray(0, end).toString().split('\r\n')) {
      const at = line.indexOf(':');
      const [k, v] = [line.slice(0, at), line.slice(at + 1).trim()];
      if (k.toLowerCase() === 'status') res.statusCode = Number.parseInt(v, 10);
      else res.setHeader(k, v);
    }
    res.write(head.subarray(end + 4));
  });
  child.stdout.on('end', () => res.end());
}

function lfsBatch(base: string, objects: Map<string, Buffer>, body: string): unknown {
  const asked = (JSON.parse(body) as { objects: { oid: string; size: number }[] }).objects;
  return {
    transfer: 'basic',
    objects: asked.map((o) => objects.has(o.oid)
      ? { oid: o.oid, size: o.size, actions: { download: { href: `${base}lfs-objects/${o.oid}` } } }
      : { oid: o.oid, size: o.size, error: { code: 404, message: 'Object does not exist' } }),
  };
}

const readBody = (req: http.IncomingMessage): Promise<string> => new Promise((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks).toString()));
});

function authorized(req: http.IncomingMessage, auth: FakeForgeOptions['gitAuth']): boolean {
  if (!auth) return true;
  const want = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  const got = req.headers.authorization ?? '';
  return got.length === want.length && crypto.timingSafeEqual(Buffer.from(got), Buffer.from(want));
}

export async function startFakeForge(o: FakeForgeOptions): Promise<FakeForge> {
  let dead = false;
  let dieWhen: ((req: ApiRequest) => boolean) | null = null;
  const requests: ApiRequest[] = [];
  const lfs = o.lfs ?? new Map<string, Buffer>();
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (/\.git\/info\/lfs\/objects\/batch$/.test(url.pathname) && req.method === 'POST') {
      if (!authorized(req, o.gitAuth)) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="lfs"' }).end();
      return void readBody(req).then((b) => res.writeHead(200, { 'content-type': 'application/vnd.git-lfs+json' }).end(JSON.stringify(lfsBatch(base, lfs, b))));
    }
    const oid = /^\/lfs-objects\/([0-9a-f]{64})$/.exec(url.pathname)?.[1];
    if (oid) return void (lfs.has(oid) ? res.writeHead(200).end(lfs.get(oid)) : res.writeHead(404).end());
    if ((o.gitPath ?? /\.git(\/|$)/).test(url.pathname)) {
      if (!authorized(req, o.gitAuth)) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return cgi(o.reposDir, req, res, url);
    }
    void readBody(req).then(async (body) => {
      const r: ApiRequest = { method: req.method ?? 'GET', url, headers: req.headers, body };
      requests.push(r);
      if (!dead && dieWhen?.(r)) dead = true;
      if (dead) return void req.socket.destroy();
      const reply = await o.api(r);
      if (!reply) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      const payload = reply.raw ?? JSON.stringify(reply.body ?? null);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...reply.headers }).end(payload);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/`;
  return {
    base, host: `127.0.0.1:${port}`, requests,
    die: () => { dead = true; },
    dieWhen: (when) => { dieWhen = when; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** Pages of `items` for a fake: the slice asked for, and whether another page follows. */
export function pageOf<T>(items: T[], url: URL, sizeParam = 'per_page', pageParam = 'page', defaultSize = 30, maxSize = 100) {
  const size = Math.min(maxSize, Math.max(1, Number(url.searchParams.get(sizeParam) ?? defaultSize) || defaultSize));
  const page = Math.max(1, Number(url.searchParams.get(pageParam) ?? 1) || 1);
  const slice = items.slice((page - 1) * size, page * size);
  return { slice, page, size, last: Math.max(1, Math.ceil(items.length / size)), more: page * size < items.length };
}
