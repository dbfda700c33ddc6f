import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basicHeader } from './helpers/server';

const root = path.join(__dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const main = path.join(root, 'src', 'main.ts');
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** Runs `hearth` from source with a config pointing at `dataDir`. */
function hearth(dataDir: string, ...args: string[]) {
  const r = spawnSync(tsx, [main, ...args], {
    encoding: 'utf8', env: { ...process.env, HEARTH__SERVER__DATA_DIR: dataDir, HEARTH__LOG__LEVEL: 'warn' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('hearth CLI', () => {
  it('--version prints the version', () => {
    const r = hearth(tmp(), '--version');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^hearth \d+\.\d+\.\d+/);
  });

  it('migrate creates the database', () => {
    const d = tmp();
    const r = hearth(d, 'migrate');
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(d, 'hearth.db'))).toBe(true);
  });

  it('admin user create, list and change-password', () => {
    const d = tmp();
    const created = hearth(d, 'admin', 'user', 'create', '--username', 'alice', '--email', 'alice@example.com',
      '--random-password', '--admin', '--access-token');
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/generated random password is '.{8,}'/);
    expect(created.out).toMatch(/Access token was successfully created\.\.\. [0-9a-f]{40}/);
    expect(created.out).toContain("New user 'alice' has been successfully created!");

    const again = hearth(d, 'admin', 'user', 'create', '--username', 'alice', '--email', 'other@example.com', '--password', 'longenough');
    expect(again.code).toBe(1);
    expect(again.err).toContain('user already exists');

    const list = hearth(d, 'admin', 'user', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/alice\s+alice@example\.com\s+true\s+true/);

    expect(hearth(d, 'admin', 'user', 'change-password', '--username', 'alice', '--password', 'short').code).toBe(1);
    const changed = hearth(d, 'admin', 'user', 'change-password', '--username', 'alice', '--password', 'a:new:password');
    expect(changed.code).toBe(0);
    expect(hearth(d, 'admin', 'user', 'change-password', '--username', 'nobody', '--password', 'whatever1').code).toBe(1);
  });

  it('admin user create needs exactly one password option', () => {
    const r = hearth(tmp(), 'admin', 'user', 'create', '--username', 'bob', '--email', 'bob@example.com');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--password or --random-password/);
  });

  it('a bad configuration key stops the start with a message naming it', () => {
    const d = tmp();
    const file = path.join(d, 'bad.toml');
    fs.writeFileSync(file, '[server]\nhttp_prot = 1\n');
    const r = hearth(d, 'migrate', '--config', file);
    expect(r.code).toBe(1);
    expect(r.err).toContain('server.http_prot');
  });

  it('web prints the first admin once, serves, and shuts down gracefully on SIGTERM', async () => {
    const d = tmp();
    const child = spawn(tsx, [main, 'web', '--port', '0', '--data', d], {
      env: { ...process.env, HEARTH__LOG__LEVEL: 'info' },
    });
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    child.stderr.on('data', (b) => { out += b; });
    const url = await waitFor(() => /"url":"(http:[^"]+)"/.exec(out)?.[1]);
    const password = /password:\s+(\S+)/.exec(out)?.[1];
    expect(password).toBeTruthy();
    const res = await fetch(`${url}api/v1/user`, { headers: { Authorization: basicHeader('root', password!) } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { is_admin: boolean }).is_admin).toBe(true);
    const exit = new Promise<number | null>((r) => child.on('exit', r));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(out).toContain('shutting down');

    // Exactly one user was created: the first admin.
    const list = hearth(d, 'admin', 'user', 'list');
    expect(list.out.trim().split('\n')).toHaveLength(2);
  });
});

async function waitFor<T>(probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
