import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git';
import { runHearth } from '../helpers/process';

// The SSH server costs a start nothing when it is off: ssh2 and src/ssh are reached only through
// src/server.ts's import(), made once HTTP listens and only with start_ssh_server on.

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
    expect(reaching[0]!.text).not.toMatch(/^import[^;]*'\.\/ssh\//m);
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
      // No first admin was made whose password no one saw.
      expect(r.err + r.out).not.toContain('password:');
      const again = await runHearth(['admin', 'user', 'list', '--data', data]);
      expect(again.code, again.err).toBe(0);
      expect(again.out.trim().split('\n').length, again.out).toBe(1);
    } finally {
      holder.close();
    }
  }, 60_000);
});
