// A throwaway PostgreSQL cluster for the benches that print PostgreSQL beside SQLite (bench/api,
// bench/issues): the same recipe as test/helpers/postgres.ts (Debian's server binaries, a temp
// directory, a Unix socket only, durability off), in plain JavaScript so `node bench/x.mjs` runs it.
// `stop()` kills the cluster and removes its directory; call it in a `finally`.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function serverBin(name) {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const bin = path.join(base, v, 'bin', name);
    if (fs.existsSync(bin)) return bin;
  }
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  throw new Error(`PostgreSQL's ${name} was not found (install Debian's postgresql package)`);
}

/** Whether PostgreSQL's server binaries are here (the benches print SQLite alone without them). */
export function postgresInstalled() {
  try { serverBin('initdb'); serverBin('pg_ctl'); return true; } catch { return false; }
}

/** A new cluster with one database, `hearth`; `url` points at it over the socket. */
export function startPostgres() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-pg-'));
  // initdb refuses root: under root the cluster belongs to the `postgres` user the package creates.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  fs.chmodSync(dir, 0o700);
  const run = (bin, args) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
    execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  };
  const data = path.join(dir, 'data');
  const user = 'hearth';
  const port = 5432;
  run(serverBin('initdb'), ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  // The same settings as the test cluster: no fsync, so the figures compare engines, not disks.
  run(serverBin('pg_ctl'), ['-D', data, '-w', '-s', '-l', path.join(dir, 'log'), '-o',
    `-k ${dir} -p ${port} -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off`, 'start']);
  const url = (database) => `postgres://${user}@/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
  run(serverBin('createdb'), ['-h', dir, '-p', String(port), '-U', user, 'hearth']);
  return {
    socketDir: dir, port, user, database: 'hearth', url: url('hearth'),
    /** The URL of another database of this cluster (one made with CREATE DATABASE). */
    urlOf: url,
    /** The environment that points hearth at this cluster. */
    env: { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: url('hearth') },
    stop() {
      try { run(serverBin('pg_ctl'), ['-D', data, '-m', 'immediate', '-s', 'stop']); } catch { /* already stopped */ }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
