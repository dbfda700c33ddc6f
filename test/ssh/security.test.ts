import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, tempDir } from '../helpers/git';
import { createUser, startSshTestServer, type TestServer } from '../helpers/server';
import { addUserKey, makeKey, runCmd, ssh, sshArgs, sshGit, sshUrl, type SshKey } from '../helpers/ssh';
import { eventually } from '../helpers/wait';

// The SSH server's guards: identity bound only by a verified signature, SHA-1 RSA signatures
// refused, tries per connection, the login deadline, idle connections closed (but never a
// running push), connections per address, host keys kept.

type User = { username: string; password: string; id: number };
let s: TestServer;
let port: number;
let alice: User;
let bob: User;
let aliceKey: SshKey;
let bobKey: SshKey;
let logFile: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  logFile = path.join(tempDir(), 'hearth.log');
  s = await startSshTestServer({
    HEARTH__SERVER__SSH_MAX_AUTH_TRIES: '3', HEARTH__SERVER__SSH_LOGIN_TIMEOUT: '1s', HEARTH__SERVER__SSH_IDLE_TIMEOUT: '1s',
    HEARTH__SERVER__SSH_MAX_SESSIONS_PER_ADDRESS: '4', HEARTH__LOG__LEVEL: 'warn', HEARTH__LOG__FILE: logFile,
  });
  port = s.sshPort!;
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  aliceKey = makeKey('ed25519', 'alice');
  bobKey = makeKey('ed25519', 'bob');
  await addUserKey(s, alice, aliceKey, 'alice key');
  await addUserKey(s, bob, bobKey, 'bob key');
  await createRepo(s, alice, 'code', { auto_init: true });
}, 60_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await s.stop();
});

/** An ssh-agent of this test, with `askpass` as the program it asks to confirm a signature. */
async function startAgent(askpass: string): Promise<string> {
  const sock = path.join(tempDir('hearth-agent-'), 'agent.sock');
  const agent = spawn('ssh-agent', ['-D', '-a', sock], { env: { ...process.env, SSH_ASKPASS: askpass, DISPLAY: ':0', SSH_ASKPASS_REQUIRE: 'force' }, stdio: 'ignore' });
  children.push(agent);
  await eventually(async () => fs.existsSync(sock), 5000, 'agent socket');
  return sock;
}

describe('signing in', () => {
  it('binds the key that signed, never an earlier one offered that did not sign (CVE-2024-45337 class)', async () => {
    const dir = tempDir();
    const refuse = path.join(dir, 'refuse.sh');
    fs.writeFileSync(refuse, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const sock = await startAgent(refuse);
    // Alice's key is first in the agent and needs a confirmation that always fails: the agent
    // will not sign with it. Bob's key signs.
    const added = await runCmd('ssh-add', ['-c', aliceKey.file], { env: { SSH_AUTH_SOCK: sock } });
    expect(added.code, added.stderr).toBe(0);
    expect((await runCmd('ssh-add', [bobKey.file], { env: { SSH_AUTH_SOCK: sock } })).code).toBe(0);
    const r = await runCmd('ssh', [
      '-v', '-F', '/dev/null', '-p', String(port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=no', 'git@127.0.0.1',
    ], { env: { SSH_AUTH_SOCK: sock } });
    // The server accepted alice's key as a question, then the agent refused to sign with it.
    expect(r.stderr).toMatch(/Server accepts key: .*alice/);
    expect(r.stderr).toMatch(/agent refused operation|signing failed/);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Hi there, bob!');
    expect(r.stderr).not.toContain('Hi there, alice!');
  });

  it('refuses SHA-1 ssh-rsa signatures and takes rsa-sha2 ones from the same key', async () => {
    const rsa = makeKey('rsa', 'alice-rsa');
    await addUserKey(s, alice, rsa, 'alice rsa');
    const sha1 = await ssh(port, rsa, [], ['-o', 'PubkeyAcceptedAlgorithms=ssh-rsa']);
    expect(sha1.code).toBe(255);
    expect(sha1.stderr).toContain('Permission denied (publickey)');
    const sha2 = await ssh(port, rsa);
    expect(sha2.code, sha2.stderr).toBe(0);
    expect(sha2.stderr).toContain('with the key named alice rsa');
  });

  it('allows ssh_max_auth_tries failed keys a connection, and logs each failure with the address', async () => {
    const strangers = [makeKey(), makeKey(), makeKey()];
    const tooMany = await ssh(port, strangers[0]!, [], [...strangers.slice(1).flatMap((k) => ['-i', k.file]), '-i', aliceKey.file]);
    expect(tooMany.code).toBe(255);
    const fine = await ssh(port, strangers[0]!, [], ['-i', strangers[1]!.file, '-i', aliceKey.file]);
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).toContain('Hi there, alice!');
    await eventually(async () => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8').includes(strangers[2]!.fingerprint), 5000, 'log line');
    const line = fs.readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes(strangers[0]!.fingerprint))!;
    expect(JSON.parse(line)).toMatchObject({ msg: 'failed SSH key sign-in', ip: '127.0.0.1', reason: 'unknown key' });
  });
});

/** Opens a raw TCP connection and resolves what it received and how long it stayed open. */
function rawConnection(send?: string): { closed: Promise<{ data: string; ms: number }>; socket: net.Socket } {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (b) => { data += b.toString('latin1'); });
  socket.on('error', () => undefined);
  if (send) socket.write(send);
  return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve({ data, ms: Date.now() - started }))) };
}

describe('limits', () => {
  it('closes a connection that does not sign in within ssh_login_timeout, counted from accept', async () => {
    const silent = rawConnection();
    const { ms } = await silent.closed;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
    // One that sent its version line and then nothing is closed as well.
    const stalled = rawConnection('SSH-2.0-OpenSSH_9.2\r\n');
    const second = await stalled.closed;
    expect(second.data).toMatch(/^SSH-2\.0-/);
    expect(second.ms).toBeLessThan(5000);
  });

  it('closes new connections past ssh_max_sessions_per_address at once', async () => {
    const open = [rawConnection(), rawConnection(), rawConnection(), rawConnection()];
    await eventually(async () => open.every((c) => c.socket.bytesRead > 0), 5000, 'server version lines');
    const extra = rawConnection();
    // Closed before SSH began (no version line), not by the login timeout after it.
    const { data } = await extra.closed;
    expect(data).toBe('');
    for (const c of open) c.socket.destroy();
    // Once the server saw them go, a new connection is served again.
    await eventually(async () => {
      const probe = rawConnection();
      await new Promise((r) => setTimeout(r, 100));
      probe.socket.destroy();
      return probe.socket.bytesRead > 0;
    }, 5000, 'connections released');
  });

  it('runs at most 10 sessions at once on one connection (a multiplexing client)', async () => {
    const dir = tempDir('hearth-mux-');
    const control = path.join(dir, 'ctl');
    const base = [...sshArgs(port, aliceKey), '-o', `ControlPath=${control}`, '-v'];
    const uploadPack = (extra: string[]) => {
      // upload-pack waits on its open stdin: the session stays open (and the connection busy,
      // so the 1 s idle timeout of this server does not close it).
      const c = spawn('ssh', [...base, ...extra, 'git@127.0.0.1', "git-upload-pack 'alice/code.git'"], { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(c);
      let out = '';
      c.stdout.on('data', (b) => { out += b; });
      c.stderr.on('data', (b) => { out += b; });
      return { c, out: () => out };
    };
    type Client = ReturnType<typeof uploadPack>;
    const served = (w: Client) => /refs\/heads\/main/.test(w.out());
    const refused = (w: Client) => /open refused/.test(w.out());
    // A mux client whose session the master cannot open (refused, or the master not reached in
    // time) goes on to open its own connection. A refusal is what this test looks for; a client
    // that fell back without one says nothing about the limit, so another one replaces it.
    const fellBack = (w: Client) => /Connecting to 127\.0\.0\.1/.test(w.out());
    const muxed = async (): Promise<Client> => {
      for (let attempt = 0; ; attempt++) {
        const w = uploadPack([]);
        await eventually(async () => served(w) || refused(w) || fellBack(w), 60_000, 'a mux client answered');
        if (refused(w) || !fellBack(w)) return w;
        w.c.kill('SIGTERM');
        if (attempt === 4) throw new Error(`mux clients keep opening their own connections: ${w.out().slice(0, 1500)}`);
      }
    };
    const master = uploadPack(['-M']);
    await eventually(async () => fs.existsSync(control) && served(master), 20_000, 'the master connection');
    // One at a time, so the count at each step is known: nine fit beside the master's session.
    const waiting: Client[] = [];
    for (let i = 0; i < 10; i++) waiting.push(await muxed());
    expect(waiting.slice(0, 9).every(served)).toBe(true);
    expect(refused(waiting[9]!)).toBe(true);
    for (const w of waiting) w.c.kill('SIGTERM');
    master.c.kill('SIGTERM');
  }, 120_000);

  it('closes a signed-in connection that runs nothing after ssh_idle_timeout', async () => {
    const started = Date.now();
    const r = await ssh(port, aliceKey, [], ['-N', '-v']);
    const ms = Date.now() - started;
    expect(r.stderr).toContain('Authenticated to 127.0.0.1');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(8000);
  });

  it('never cuts a running push by time: one that stalls past the idle timeout lands', async () => {
    const dir = tempDir();
    const c = await sshGit(port, aliceKey, dir, ['clone', '-q', sshUrl(port, 'alice', 'code'), 'w']);
    expect(c.code, c.stderr).toBe(0);
    const wt = path.join(dir, 'w');
    fs.writeFileSync(path.join(wt, 'slow.txt'), 'slow\n');
    await runCmd('git', ['add', '.'], { cwd: wt });
    await runCmd('git', ['commit', '-q', '-m', 'slow'], { cwd: wt });
    // The client's first bytes pass, then nothing for 2.5 s (twice the idle timeout), then the rest.
    const slow = path.join(dir, 'slow-ssh.sh');
    const quoted = sshArgs(port, aliceKey).map((a) => `'${a}'`).join(' ');
    fs.writeFileSync(slow, `#!/bin/sh\n{ dd bs=1 count=4 2>/dev/null; sleep 2.5; cat; } | ssh ${quoted} "$@"\n`, { mode: 0o755 });
    const push = await runCmd('git', ['push', '-q', 'origin', 'main'], { cwd: wt, env: { GIT_SSH_COMMAND: slow, GIT_SSH_VARIANT: 'ssh' } });
    expect(push.code, push.stderr).toBe(0);
    const head = (await runCmd('git', ['rev-parse', 'HEAD'], { cwd: wt })).stdout.trim();
    const ls = await sshGit(port, aliceKey, dir, ['ls-remote', sshUrl(port, 'alice', 'code'), 'refs/heads/main']);
    expect(ls.stdout.split('\t')[0]).toBe(head);
  });
});

describe('host keys', () => {
  it('serves the ed25519 and RSA keys kept in the data directory', async () => {
    const scan = await runCmd('ssh-keyscan', ['-p', String(port), '-t', 'ed25519,rsa', '127.0.0.1']);
    for (const file of ['hearth.ed25519.pub', 'hearth.rsa.pub']) {
      const [type, blob] = fs.readFileSync(path.join(s.dataDir, 'ssh', file), 'utf8').trim().split(' ');
      expect(scan.stdout).toContain(`${type} ${blob}`);
    }
  });
});

describe('the sign-in limiter shared with the web form and Basic auth', () => {
  it('counts a connection that ends without signing in once, and refuses the address past ten, good key or not', async () => {
    // A server of its own: the limit is per address, and this test uses it up for 127.0.0.1.
    const own = await startSshTestServer();
    try {
      const carol = await createUser(own, 'carol');
      const carolKey = makeKey('ed25519', 'carol');
      await addUserKey(own, carol, carolKey, 'carol key');
      const stranger = makeKey('ed25519', 'stranger');
      const other = makeKey('ed25519', 'other');
      // Nine connections offering two unknown keys each: nine failures, not eighteen.
      for (let i = 0; i < 9; i++) {
        const r = await ssh(own.sshPort!, stranger, [], ['-i', other.file]);
        expect(r.stderr).toContain('Permission denied');
      }
      expect((await ssh(own.sshPort!, carolKey, [])).stderr).toContain('Hi there, carol!');
      expect((await ssh(own.sshPort!, stranger, [])).stderr).toContain('Permission denied');
      // The tenth failure used up the address's tries: a good key is refused too.
      const refused = await ssh(own.sshPort!, carolKey, []);
      expect(refused.stderr).not.toContain('Hi there, carol!');
      // The same address is refused by the web form and Basic auth too.
      const basic = await own.request('api/v1/user', { auth: { basic: [carol.username, carol.password] } });
      expect(basic.status).toBe(429);
    } finally {
      await own.stop();
    }
  });
});
