import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { DISALLOWED, migrationDispatcher } from '../../src/services/migrate/remote-address';

// Regression: migration dispatcher connected to IP literals unchecked. The importers follow
// addresses the source hands out (an LFS batch answer's action href, attachment URLs); Node
// connects to an IP literal without a DNS lookup, so only the name lookup was checked and a
// source could point hearth at 127.0.0.1 under the default `external` rule.

let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('reached'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const configWith = (env: Record<string, string>) => loadConfig(null, {}, { HEARTH__SERVER__DATA_DIR: '/nonexistent', ...env });

describe('migrationDispatcher', () => {
  it('refuses a loopback IP literal under the default rules, as it refuses a name that resolves to one', async () => {
    const dispatcher = migrationDispatcher(configWith({}));
    for (const url of [`http://127.0.0.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://localhost:${port}/`]) {
      await expect(request(url, { dispatcher }), url).rejects.toThrow(DISALLOWED);
    }
  });

  it('connects to the literal when [migrations] allows local networks', async () => {
    const dispatcher = migrationDispatcher(configWith({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' }));
    const res = await request(`http://127.0.0.1:${port}/`, { dispatcher });
    expect(await res.body.text()).toBe('reached');
  });

  it('refuses a literal in blocked_domains even with local networks allowed', async () => {
    const dispatcher = migrationDispatcher(configWith({
      HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__BLOCKED_DOMAINS: '127.0.0.1',
    }));
    await expect(request(`http://127.0.0.1:${port}/`, { dispatcher })).rejects.toThrow(DISALLOWED);
  });
});

describe('migrationDispatcher sharing', () => {
  it('is one pool per configuration, shared by every migration and mirror sync of it', () => {
    const config = configWith({});
    expect(migrationDispatcher(config)).toBe(migrationDispatcher(config));
    expect(migrationDispatcher(configWith({}))).not.toBe(migrationDispatcher(config));
  });
});
