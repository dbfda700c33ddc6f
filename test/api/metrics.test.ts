import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// GET /metrics as Gitea's [metrics]: off by default, behind a Bearer token when one is set,
// Prometheus' text format with Gitea's gauge names, computed at scrape time.

type Sample = { name: string; labels: Record<string, string>; value: number };
type Family = { type: string; help: string; samples: Sample[] };

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
const SUFFIXES: Record<string, string[]> = {
  counter: ['', '_total'], gauge: [''], histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'], untyped: [''],
};

// As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case (prom-client writes "Nan").
function parseValue(s: string, line: string): number {
  if (/^\+?inf(inity)?$/i.test(s)) return Infinity;
  if (/^-inf(inity)?$/i.test(s)) return -Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(s)) throw new Error(`bad value in: ${line}`);
  return Number(s);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`bad labels in: ${line}`);
    if (m[1]! in labels) throw new Error(`repeated label in: ${line}`);
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** A strict reader of the text exposition format 0.0.4: every sample in a declared family. */
function parseProm(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (sample: string) => {
    for (const [name, f] of families) if ((SUFFIXES[f.type] ?? []).some((s) => name + s === sample)) return f;
    return undefined;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!NAME.test(name!)) throw new Error(`bad name in: ${line}`);
      const f = families.get(name!) ?? { type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!(rest! in SUFFIXES)) throw new Error(`bad type in: ${line}`);
        if (f.samples.length) throw new Error(`TYPE after samples: ${line}`);
        f.type = rest!;
      } else f.help = rest!;
      families.set(name!, f);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const f = familyOf(m[1]!);
    if (!f) throw new Error(`sample of no declared family: ${line}`);
    f.samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3]!, line) });
  }
  return families;
}

const TOKEN = 'scrape-secret';
let s: TestServer;
let alice: { username: string; password: string; id: number };

const scrape = async () => {
  const res = await s.request('metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseProm(await res.text());
};
const value = (m: Map<string, Family>, family: string, labels: Record<string, string> = {}, sample = family) =>
  m.get(family)?.samples.filter((x) => x.name === sample && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
    .reduce((a, x) => a + x.value, 0) ?? NaN;

beforeAll(async () => {
  s = await startTestServer({ HEARTH__METRICS__ENABLED: 'true', HEARTH__METRICS__TOKEN: TOKEN });
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

describe('GET /metrics', () => {
  it('refuses a scrape without the token or with a wrong one (401)', async () => {
    expect((await s.request('metrics')).status).toBe(401);
    expect((await s.request('metrics', { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await s.request('metrics', { headers: { Authorization: TOKEN } })).status).toBe(401);
  });

  it('answers in the text format, with Gitea\'s gauges and process metrics', async () => {
    const m = await scrape();
    for (const name of ['gitea_users', 'gitea_organizations', 'gitea_repositories', 'gitea_issues', 'gitea_releases',
      'gitea_webhooks', 'gitea_milestones', 'gitea_labels', 'gitea_comments', 'gitea_stars', 'gitea_follows', 'gitea_oauths', 'hearth_pulls']) {
      expect(m.get(name)?.type, name).toBe('gauge');
    }
    expect(value(m, 'gitea_users')).toBe(2); // the first admin and alice
    expect(value(m, 'gitea_oauths')).toBe(0);
    await ok(await s.request('api/v1/user/applications/oauth2', {
      method: 'POST', auth: as(alice), json: { name: 'app', redirect_uris: ['https://example.com/cb'] },
    }), 201);
    expect(value(await scrape(), 'gitea_oauths')).toBe(1);
    expect(m.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(m.get('hearth_http_request_duration_seconds')?.type).toBe('histogram');
  });

  it('counts move after creating a repository and after a clone', async () => {
    const before = await scrape();
    await createRepo(s, alice, 'proj', { auto_init: true });
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'proj', alice.username, alice.password), 'proj');
    const after = await scrape();
    expect(value(after, 'gitea_repositories')).toBe(value(before, 'gitea_repositories') + 1);
    const clones = (m: Map<string, Family>) => value(m, 'hearth_git_requests_total', { service: 'upload-pack' }, 'hearth_git_requests_total');
    // Protocol v2 clones in two POSTs (ls-refs, then fetch).
    expect(clones(after)).toBeGreaterThan(clones(before));
    const sent = (m: Map<string, Family>) => value(m, 'hearth_git_bytes_total', { service: 'upload-pack', direction: 'out' }, 'hearth_git_bytes_total');
    expect(sent(after)).toBeGreaterThan(sent(before));
  });

  it('times requests by route pattern, never by raw URL', async () => {
    expect((await s.request('api/v1/repos/alice/proj', { auth: { basic: [alice.username, alice.password] } })).status).toBe(200);
    const m = await scrape();
    const routes = new Set(m.get('hearth_http_request_duration_seconds')!.samples.map((x) => x.labels.route));
    expect(routes).toContain('/api/v1/repos/{owner}/{repo}');
    expect([...routes].filter((r) => r?.includes('alice'))).toEqual([]);
    expect(value(m, 'hearth_http_request_duration_seconds', { route: '/api/v1/repos/{owner}/{repo}', status: '200', method: 'GET' }, 'hearth_http_request_duration_seconds_count')).toBeGreaterThanOrEqual(1);
  });

  it('is not served when [metrics] is not enabled (the default)', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.request('metrics')).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});
