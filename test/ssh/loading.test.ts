import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git';
import { processDatabaseEnv, runHearth, startHearthProcess } from '../helpers/process';
import { startTestServer } from '../helpers/server';

// The SSH server costs a start nothing when it is off: ssh2 and src/ssh are reached only through
// src/server.ts's import(), made once the server answers and only with start_ssh_server on. The
// one static import is src/ssh/listener.ts (node:net alone), which binds the port at the start.

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = () => fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f, text: fs.readFileSync(path.join(SRC, f), 'utf8') }));

describe('loading the SSH server', () => {
  it('only src/ssh imports ssh2, and only through src/server.ts import() is src/ssh reached', () => {
    const ssh2 = sources().filter((s) => /^import\s+(?!type\s)[^;]*from\s+'ssh2'/m.test(s.text)).map((s) => s.file);
    expect(ssh2.length).toBeGreaterThan(0);
    expect(ssh2.every((f) => f.startsWith('ssh/'))).toBe(true);
    const reaching = sources().filter((s) => !s.file.startsWith('ssh/') && /from\s+'\.{1,2}\/(?:\.\.\/)*ssh\/|import\('\.\/ssh\//.test(s.text));
    expect(reaching.map((s) => s.file)).toEqual(['server.ts']);
    expect(reaching[0]!.text).toMatch(/await import\('\.\/ssh\/server'\)/);
    const statics = [...reaching[0]!.text.matchAll(/^import[^;]*'\.\/ssh\/([^']+)'/gm)].map((m) => m[1]);
    expect(statics).toEqual(['listener']);
    const listener = sources().find((s) => s.file === 'ssh/listener.ts')!.text;
    expect([...listener.matchAll(/^import\s+(?!type\s)[^;]*from\s+'([^']+)'/gm)].map((m) => m[1])).toEqual(['node:net']);
  });

  it('stops the start with one line naming the SSH keys when the SSH port is taken', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const data = path.join(tempDir(), 'data');
      const r = await runHearth(['web', '--port', '0', '--data', data], {
        HEARTH__SERVER__START_SSH_SERVER: 'true', HEARTH__SERVER__SSH_LISTEN_PORT: String(port), HEARTH__SERVER__HTTP_ADDR: '127.0.0.1',
      });
      expect(r.code).toBe(1);
      expect(r.err).toContain(`hearth: cannot listen for SSH on 127.0.0.1:${port}: the address is already in use (EADDRINUSE)`);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      // Found before anything was made: no data directory, no first admin whose password no one saw.
      expect(r.err + r.out).not.toContain('password:');
      expect(fs.existsSync(data)).toBe(false);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('a busy default SSH port (22 as root, where sshd often listens) turns the built-in server off; the start goes on', async () => {
    const port = process.getuid?.() === 0 ? 22 : 2222;
    const holder = net.createServer();
    // Held here, or already held by another program: busy either way.
    await new Promise<void>((resolve) => { holder.once('error', () => resolve()); holder.listen(port, '127.0.0.1', resolve); });
    try {
      const s = await startTestServer({ HEARTH__SERVER__START_SSH_SERVER: 'true', HEARTH__SERVER__SSH_LISTEN_PORT: '' });
      try {
        expect(s.sshPort).toBeNull();
        expect((await s.request('api/v1/version')).status).toBe(200);
      } finally {
        await s.stop();
      }
    } finally {
      holder.close();
    }
  });

  /** `hearth web` with the built-in SSH server on, whose start fails once it reaches its host keys. */
  async function startWithUnwritableHostKeys() {
    const data = path.join(tempDir(), 'data');
    fs.mkdirSync(data, { recursive: true });
    // Where the host keys go, a file.
    fs.writeFileSync(path.join(data, 'ssh'), 'not a directory');
    return startHearthProcess(data, {
      ...(await processDatabaseEnv()), HEARTH__SERVER__START_SSH_SERVER: 'true', HEARTH__SERVER__SSH_LISTEN_PORT: '0', HEARTH__SERVER__HTTP_ADDR: '127.0.0.1',
    });
  }
  const exitWithin = (server: Awaited<ReturnType<typeof startWithUnwritableHostKeys>>, ms: number) =>
    Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), ms))]);

  it('a stop while the SSH server is still starting, and its start then fails, still stops the process (bug: the quick start hung for good after its Ctrl-C)', async () => {
    const server = await startWithUnwritableHostKeys();
    // At once: the SSH server's modules load after a delay, so its start is still under way.
    server.child.kill('SIGTERM');
    const exited = await exitWithin(server, 15_000);
    expect(exited, server.out()).not.toBe('still running');
    expect(server.out()).toContain('shutting down');
  }, 60_000);

  it('an SSH server whose start fails after HTTP listened stops the process cleanly, exit 1, with one line saying why (it was an unhandled rejection: a fatal stack, no clean stop)', async () => {
    const server = await startWithUnwritableHostKeys();
    const exited = await exitWithin(server, 20_000);
    expect(exited, server.out()).toBe(1);
    expect(server.out()).toMatch(/hearth: the built-in SSH server could not start \(EEXIST[^\n]*\); fix it or set \[server\] start_ssh_server = false/);
    expect(server.out()).toContain('shutting down');
    expect(server.out()).not.toContain('unhandled promise rejection');
  }, 60_000);
});
