import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { describe } from 'vitest';

// A throwaway PostgreSQL server for the tests that read or write PostgreSQL: a new cluster in a
// temp directory, listening on a Unix socket only (no port to collide on), stopped and removed
// by `stop`. Debian's server binaries sit under /usr/lib/postgresql/<version>/bin, off PATH;
// initdb refuses to run as root, so under root the cluster belongs to the `postgres` user the
// package creates. CI installs the package (.ci/run); a machine without it fails here, loudly.

export type TempPostgres = {
  socketDir: string; port: number; database: string; user: string;
  /** A postgres:// URL on the socket (the password in it when the cluster has one). */
  url(database?: string): string;
  stop(): void;
};

function serverBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const bin = path.join(root, v, 'bin', name);
    if (fs.existsSync(bin)) return bin;
  }
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  throw new Error(`PostgreSQL's ${name} was not found (install Debian's postgresql package, as .ci/run does)`);
}

/** `password`: the cluster asks for it (scram-sha-256) instead of trusting every local connection. */
/**
 * Whether this machine has PostgreSQL's server binaries. The suite passes without them: the tests
 * that need a server of their own skip (`withPostgres`). HEARTH_TEST_NO_POSTGRES=1 pretends they
 * are missing, to check exactly that.
 */
export const postgresInstalled: boolean = process.env.HEARTH_TEST_NO_POSTGRES !== '1' && (() => {
  try { serverBin('initdb'); serverBin('pg_ctl'); return true; } catch { return false; }
})();

/**
 * `npm test` on SQLite leaves these suites to the PostgreSQL pass (`HEARTH_TEST_DB=postgres npm
 * test`, which CI runs after it and which runs them all): run twice, the two-node scenarios were
 * minutes of CI for nothing new. Run directly (`npx vitest run <files>`), they start a server of
 * their own as before.
 */
const leftToPostgresPass = process.env.npm_lifecycle_event === 'test' && process.env.HEARTH_TEST_DB !== 'postgres';

/** A describe block that needs a PostgreSQL server of its own: skipped where none is installed. */
export const withPostgres = describe.skipIf(!postgresInstalled || leftToPostgresPass);

export function startPostgres(opts: { password?: string } = {}): TempPostgres {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pg-'));
  const root = process.getuid?.() === 0;
  const as = (bin: string, args: string[]) => (root ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] as const : [bin, args] as const);
  if (root) execFileSync('chown', ['postgres:', dir]);
  fs.chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const user = 'hearth';
  const run = (bin: string, args: string[]) => {
    const [cmd, argv] = as(bin, args);
    execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  };
  const auth = ['--auth=trust'];
  if (opts.password !== undefined) {
    const pwfile = path.join(dir, 'pwfile');
    fs.writeFileSync(pwfile, `${opts.password}\n`, { mode: 0o600 });
    if (root) execFileSync('chown', ['postgres:', pwfile]);
    auth.splice(0, 1, '--auth=scram-sha-256', `--pwfile=${pwfile}`);
  }
  run(serverBin('initdb'), ['-D', data, '-U', user, ...auth, '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = 5432;
  run(serverBin('pg_ctl'), ['-D', data, '-w', '-s', '-l', path.join(dir, 'log'), '-o',
    `-k ${dir} -p ${port} -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`, 'start']);
  return {
    socketDir: dir, port, database: 'postgres', user,
    url: (database = 'postgres') => {
      const who = opts.password !== undefined ? `${user}:${encodeURIComponent(opts.password)}` : user;
      return `postgres://${who}@/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
    },
    stop() {
      try { run(serverBin('pg_ctl'), ['-D', data, '-m', 'immediate', '-s', 'stop']); } catch { /* already stopped */ }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port on loopback that nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}
