import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fatalHandler } from '../../src/cli/web';
import { createLogger, textLine } from '../../src/lib/logger';
import { createRepo, git, remoteUrl, tempDir, workTree } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// What the log tells an operator: failed sign-ins (for fail2ban), access lines, a file that
// logrotate can move (SIGHUP reopens it), text or JSON lines.

const logDir = tempDir('hearth-logs-');
const readLines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const jsonLines = (file: string) => readLines(file).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('JSON log file', () => {
  const file = path.join(logDir, 'json', 'hearth.log');
  let s: TestServer;
  let alice: { username: string; password: string };
  beforeAll(async () => {
    s = await startTestServer({ HEARTH__LOG__LEVEL: 'info', HEARTH__LOG__FILE: file, HEARTH__LOG__FORMAT: 'json', HEARTH__LOG__ACCESS: 'true' });
    alice = await createUser(s, 'alice');
  });
  afterAll(async () => { await s.stop(); });

  it('logs a failed sign-in at warn with the user name and the client address', async () => {
    const res = await s.request('api/v1/user', { auth: { basic: ['alice', 'wrong-password'] } });
    expect(res.status).toBe(401);
    await vi.waitFor(() => {
      const line = jsonLines(file).find((l) => l.msg === 'failed sign-in');
      expect(line).toMatchObject({ level: 40, user: 'alice', msg: 'failed sign-in' });
      expect(String(line!.ip)).toMatch(/127\.0\.0\.1$/);
    }, { timeout: 5000, interval: 50 });
  });

  it('logs one access line per request at info with [log] access', async () => {
    expect((await s.request('api/v1/version')).status).toBe(200);
    await vi.waitFor(() => {
      expect(jsonLines(file).find((l) => l.msg === 'request' && l.url === '/api/v1/version')).toMatchObject({ level: 30, status: 200, method: 'GET' });
    }, { timeout: 5000, interval: 50 });
  });

  it('reopens the file on SIGHUP (after logrotate moved it)', async () => {
    await vi.waitFor(() => expect(readLines(file).length).toBeGreaterThan(0), { timeout: 5000 });
    fs.renameSync(file, `${file}.1`);
    process.emit('SIGHUP' as never);
    await vi.waitFor(async () => {
      await s.request('api/v1/user', { auth: { basic: [alice.username, 'wrong-again'] } });
      expect(jsonLines(file).some((l) => l.msg === 'failed sign-in')).toBe(true);
    }, { timeout: 5000, interval: 50 });
  });
});

describe('text log lines', () => {
  const file = path.join(logDir, 'text', 'hearth.log');
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ HEARTH__LOG__LEVEL: 'info', HEARTH__LOG__FILE: file, HEARTH__LOG__FORMAT: 'text' });
    await createUser(s, 'bob');
  });
  afterAll(async () => { await s.stop(); });

  it('writes a failed sign-in as one stable line fail2ban can match', async () => {
    await s.request('api/v1/user', { auth: { basic: ['bob', 'nope'] } });
    await vi.waitFor(() => {
      expect(readLines(file).find((l) => l.includes('failed sign-in'))).toMatch(/^\d{4}-\d\d-\d\dT\S+Z WARN  failed sign-in .*user=bob ip=\S*127\.0\.0\.1/);
    }, { timeout: 5000, interval: 50 });
  });

  it('formats fields, quoting values with spaces', () => {
    const line = textLine(JSON.stringify({ level: 30, time: 0, msg: 'hello', app: 'hearth', a: 'x y', n: 2 }));
    expect(line).toBe('1970-01-01T00:00:00.000Z INFO  hello a="x y" n=2\n');
  });
});

describe('large downloads', () => {
  let s: TestServer;
  let alice: { username: string; password: string };
  const warnings: Error[] = [];
  const onWarning = (w: Error) => { warnings.push(w); };
  beforeAll(async () => {
    s = await startTestServer();
    alice = await createUser(s, 'alice');
    process.on('warning', onWarning);
  });
  afterEach(() => { warnings.length = 0; });
  afterAll(async () => {
    process.off('warning', onWarning);
    await s.stop();
  });

  // Regression: each full write buffer left a 'close' listener on the response behind.
  it('a large raw download raises no MaxListenersExceededWarning', async () => {
    await createRepo(s, alice, 'big');
    const big = crypto.randomBytes(6 * 1024 * 1024).toString('base64');
    const wt = await workTree({ 'big.txt': big });
    await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'big', alice.username, alice.password), 'main');
    const res = await s.request('api/v1/repos/alice/big/raw/big.txt', { auth: { basic: [alice.username, alice.password] } });
    expect(res.status).toBe(200);
    // Read slowly: the server's buffer fills again and again.
    const reader = res.body!.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(size).toBe(big.length);
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });
});

describe('a bug that escapes every handler', () => {
  it('is one fatal log line with its stack, then exit status 1', async () => {
    const file = path.join(logDir, 'fatal', 'hearth.log');
    const log = createLogger({ level: 'info', file, format: 'json' });
    // A server's log file is open long before: so here too.
    log.info('started');
    await vi.waitFor(() => expect(jsonLines(file)).toHaveLength(1), { timeout: 5000, interval: 20 });
    const exits: number[] = [];
    fatalHandler(log, 'uncaught exception', (code) => { exits.push(code); })(new TypeError('boom in a handler'));
    // The log writes asynchronously and pino's flush answers at once: a real exit writes what is
    // still in flight (pino's exit hook), this stand-in does not, so the line may land just after.
    await vi.waitFor(() => {
      expect(exits[0]).toBe(1);
      expect(jsonLines(file).some((l) => l.level === 60)).toBe(true);
    }, { timeout: 5000, interval: 20 });
    const line = jsonLines(file).find((l) => l.level === 60);
    expect(line).toMatchObject({ msg: 'uncaught exception: hearth stops', err: { type: 'TypeError', message: 'boom in a handler' } });
    expect(String((line!.err as { stack: string }).stack)).toContain('logs.test.ts');
  });
});

describe('a log file that cannot be written (regression: a full disk stopped the server)', () => {
  it('keeps the process going and says so on stderr; an exit meanwhile does not hang', () => {
    // /dev/full answers every write with ENOSPC, as a full disk does.
    const script = path.join(logDir, 'full-disk.ts');
    fs.writeFileSync(script, [
      `import { createLogger } from ${JSON.stringify(path.resolve(__dirname, '../../src/lib/logger'))};`,
      "const log = createLogger({ level: 'info', file: '/dev/full', format: 'json' });",
      "let n = 0;",
      "const timer = setInterval(() => { log.info({ n: n++ }, 'still here'); }, 5);",
      "setTimeout(() => { clearInterval(timer); process.stdout.write(`logged ${n}\\n`); process.exit(0); }, 400);",
    ].join('\n'));
    const r = spawnSync(path.resolve(__dirname, '../../node_modules/.bin/tsx'), [script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.error).toBeUndefined(); // not killed by the timeout: the exit did not spin
    expect(r.status, r.stderr).toBe(0);
    expect(Number(/logged (\d+)/.exec(r.stdout)?.[1])).toBeGreaterThan(10);
    expect(r.stderr.match(/cannot write the log file \/dev\/full \(ENOSPC\)/g)).toHaveLength(1);
  });
});
