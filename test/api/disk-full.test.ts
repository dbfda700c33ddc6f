import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { sqliteOnly } from '../helpers/test-database';

// A full disk is the operator's problem, said as such: 507 Insufficient Storage with a message
// that names it (not a 500 "internal error" that reads like a crash; the log line names ENOSPC),
// nothing half-stored, and the server goes on. The disk is a small tmpfs holding the whole data
// directory; mounting needs root (CAP_SYS_ADMIN), as CI has: elsewhere the test is skipped.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let disk = '';
let mounted = false;

/** A 12 MiB tmpfs, for the test server's whole data directory (one file system, as in production). */
function tryMount(dir: string): boolean {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  disk = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-disk-'));
  mounted = tryMount(disk);
  const tmpdir = process.env.TMPDIR;
  // The harness makes its data directory under os.tmpdir(): on the small disk.
  if (mounted) process.env.TMPDIR = disk;
  try {
    s = await startTestServer();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'proj', { auto_init: true });
  await ok(await s.request('api/v1/repos/alice/proj/issues', { method: 'POST', auth: as(alice), json: { title: 'with a file' } }), 201);
});
afterAll(async () => {
  await s.stop();
  if (mounted) execFileSync('umount', ['-l', disk]);
  fs.rmSync(disk, { recursive: true, force: true });
});

describe('a full disk', () => {
  it('answers 507 naming it, keeps nothing of the upload, and the server goes on', async (ctx) => {
    if (!mounted) ctx.skip();
    const form = new FormData();
    form.append('attachment', new Blob([Buffer.alloc(16 * 1024 * 1024, 7)]), 'big.bin');
    expect(s.dataDir.startsWith(disk)).toBe(true);
    const res = await s.request('api/v1/repos/alice/proj/issues/1/assets', { method: 'POST', auth: as(alice), body: form });
    expect(res.status).toBe(507);
    expect((await json(res)).message).toBe('insufficient storage: the server\'s disk is full');
    const spool = path.join(s.dataDir, 'tmp');
    const leftovers = fs.readdirSync(spool, { recursive: true }).filter((f) => fs.statSync(path.join(spool, String(f))).isFile());
    expect(leftovers).toEqual([]);
    expect(await ok(await s.request('api/v1/repos/alice/proj/issues/1/assets', { auth: as(alice) }))).toEqual([]);
    // Smaller uploads still fit, and everything else answers.
    const small = new FormData();
    small.append('attachment', new Blob([Buffer.from('fits')]), 'small.txt');
    await ok(await s.request('api/v1/repos/alice/proj/issues/1/assets', { method: 'POST', auth: as(alice), body: small }), 201);
  });
  // SQLite's file sits on the full disk; a PostgreSQL database lives in its cluster, elsewhere.
  sqliteOnly('a database write on a full disk is a 507 too (regression: SQLite\'s own rollback turned it into a 500), and the next works once there is room', async (ctx) => {
    if (!mounted) ctx.skip();
    const filler = path.join(disk, 'filler');
    // Fill what is left, then write issues until SQLite needs a page it cannot have.
    try { fs.writeFileSync(filler, Buffer.alloc(64 * 1024 * 1024)); } catch { /* full: as meant */ }
    let status = 201;
    for (let i = 0; i < 200 && status === 201; i++) {
      const res = await s.request('api/v1/repos/alice/proj/issues', { method: 'POST', auth: as(alice), json: { title: `issue ${i}`, body: 'x'.repeat(8000) } });
      status = res.status;
      if (status !== 201) expect((await json(res)).message).toBe('insufficient storage: the server\'s disk is full');
    }
    expect(status).toBe(507);
    fs.rmSync(filler);
    await ok(await s.request('api/v1/repos/alice/proj/issues', { method: 'POST', auth: as(alice), json: { title: 'room again' } }), 201);
  });
});
