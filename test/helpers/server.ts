import { expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load';
import { startServer, type RunningServer } from '../../src/server';
import { createTestPostgresDatabase } from './test-database';
import { s3Pass, startTestS3 } from './s3';

export type TestServer = RunningServer & {
  dataDir: string;
  admin: { username: string; password: string };
  /** fetch against the server; `path` is relative to the root URL (e.g. `api/v1/version`). */
  request: (path: string, init?: RequestInit & { auth?: Auth; json?: unknown }) => Promise<Response>;
  stop: () => Promise<void>;
};

export type Auth =
  | { basic: [string, string] }
  | { token: string; as?: 'header' | 'bearer' | 'query' | 'access_token' }
  | undefined;

export const basicHeader = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * The built-in SSH server is off in tests unless asked for (HEARTH__SERVER__START_SSH_SERVER:
 * 'true'; see startSshTestServer): it would load ssh2 and make host keys for every server.
 * Asked for, it listens on a port the kernel picks.
 */
export const SSH_OFF = { HEARTH__SERVER__START_SSH_SERVER: 'false', HEARTH__SERVER__SSH_LISTEN_PORT: '0' };

/** A test server with the built-in SSH server on (runningServer.sshPort). */
export const startSshTestServer = (env: Record<string, string> = {}) =>
  startTestServer({ HEARTH__SERVER__START_SSH_SERVER: 'true', ...env });

/**
 * Starts the real app on an ephemeral loopback port over a fresh temp data dir.
 * `extra` are TOML-like overrides given as environment variables (HEARTH__SECTION__KEY).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'));
  // HEARTH_TEST_DB=postgres: a database of its own, cloned from the run's migrated template.
  const pg = await createTestPostgresDatabase();
  // A small pool: test files run side by side on one cluster (a test may still ask for more).
  const onPg = pg ? { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: pg.url, HEARTH__DATABASE__POOL_SIZE: '4' } : {};
  // HEARTH_TEST_STORAGE=s3: package files and LFS objects in a bucket of an S3 server of its own.
  const s3 = s3Pass() && !env.HEARTH__STORAGE__TYPE ? await startTestS3() : null;
  const onS3 = s3 ? s3.env() : {};
  // An empty value drops a default of SSH_OFF (the SSH port: its own default then applies).
  const vars = Object.fromEntries(Object.entries({ HEARTH__LOG__LEVEL: 'silent', ...SSH_OFF, ...onPg, ...onS3, ...env }).filter(([, v]) => v !== ''));
  const config = loadConfig(null, { port: 0, dataDir }, vars);
  config.server.http_addr = '127.0.0.1';
  const running = await startServer(config).catch(async (err: unknown) => { await pg?.drop(); await s3?.stop(); throw err; });
  if (!running.initialAdmin) throw new Error('expected a first admin on a fresh data dir');
  const request: TestServer['request'] = (p, init = {}) => {
    const { auth, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    let url = new URL(p, running.hearth.config.server.root_url);
    if (auth && 'basic' in auth) headers.set('Authorization', basicHeader(...auth.basic));
    if (auth && 'token' in auth) {
      const as = auth.as ?? 'header';
      if (as === 'header') headers.set('Authorization', `token ${auth.token}`);
      else if (as === 'bearer') headers.set('Authorization', `Bearer ${auth.token}`);
      else url = withQuery(url, as === 'query' ? 'token' : 'access_token', auth.token);
    }
    let body = rest.body;
    if (json !== undefined) {
      body = JSON.stringify(json);
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    }
    return fetch(url, { ...rest, headers, body });
  };
  return {
    ...running,
    dataDir,
    admin: running.initialAdmin,
    request,
    stop: async () => {
      await running.close();
      await pg?.drop();
      await s3?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function withQuery(url: URL, key: string, value: string): URL {
  const copy = new URL(url);
  copy.searchParams.set(key, value);
  return copy;
}

/** Creates a user through the admin API and returns its credentials. */
export async function createUser(
  s: TestServer, name: string, extra: Record<string, unknown> = {},
): Promise<{ username: string; password: string; id: number }> {
  const password = `pw-${name}-secret`;
  const res = await s.request('api/v1/admin/users', {
    method: 'POST', auth: { basic: [s.admin.username, s.admin.password] },
    json: { username: name, email: `${name}@example.com`, password, must_change_password: false, ...extra },
  });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { id: number };
  return { username: name, password, id: body.id };
}

/** Creates a token for a user through the API (Basic auth) and returns its sha1. */
export async function createToken(
  s: TestServer, user: { username: string; password: string }, scopes: string[], name = `t-${Math.random().toString(36).slice(2, 10)}`,
): Promise<string> {
  const res = await s.request(`api/v1/users/${user.username}/tokens`, {
    method: 'POST', auth: { basic: [user.username, user.password] }, json: { name, scopes },
  });
  if (res.status !== 201) throw new Error(`creating token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { sha1: string }).sha1;
}

/** The body as loosely typed JSON: tests assert on its shape explicitly. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = async (res: Response): Promise<any> => res.json();

/** Basic credentials of a user (null: anonymous), for `request`'s `auth`. */
export const as = (u: { username: string; password: string } | null): Auth => (u ? { basic: [u.username, u.password] } : undefined);

/** Reads a response, asserting its status (the body in the message when it differs); JSON parsed, other bodies as text. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function ok(res: Response, status = 200): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  if (!text) return undefined;
  return res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}
