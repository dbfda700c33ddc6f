import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverOwnerMove, recoverRepoDelete, recoverRepoMove } from '../../src/services/recovery/repo-move-recovery';
import { git } from '../helpers/git';
import { crashTmp, killedBy, runOn, startCrashable, stopAndDoctor, type Crashable } from '../helpers/crash';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// A rename, transfer, organization rename or delete killed (SIGKILL at a crash point, as a power
// loss would stop it) between the directory move and the commit, or after the commit and before
// the cleanup: the next start makes the disk match the database, and the request can be retried.

/** The request the crash point cuts short: the connection drops as the process dies. */
const crashOn = (h: Crashable, p: string, method: string, json?: unknown): Promise<void> => killedBy(h, h.call(p, method, json));

/** The repository answers under `full` through the API and git, its wiki included. */
async function expectWhole(h: Crashable, full: string): Promise<void> {
  expect((await ok(await h.call(`repos/${full}`), 200)).full_name).toBe(full);
  expect((await ok(await h.call(`repos/${full}/branches`), 200)).map((b: { name: string }) => b.name)).toContain('main');
  expect((await ok(await h.call(`repos/${full}/contents`), 200)).length).toBeGreaterThan(0);
  expect((await ok(await h.call(`repos/${full}/wiki/page/Home`), 200)).title).toBe('Home');
  const work = crashTmp('hearth-crash-move-wt-');
  await git(work, 'clone', '-q', `${h.url.replace('://', `://root:${h.password}@`)}/${full}.git`, 'c');
  expect(fs.readdirSync(path.join(work, 'c')).length).toBeGreaterThan(1);
}

/** Recovery ran at this start, and doctor finds nothing wrong. */
async function expectRecovered(h: Crashable, data: string): Promise<void> {
  expect(h.out()).toContain('recovered work a crash interrupted');
  const doctor = await runOn(data, ['doctor']);
  expect(doctor.code, doctor.out + doctor.err).toBe(0);
}

async function makeRepoWithWiki(h: Crashable, name: string): Promise<void> {
  await ok(await h.call('user/repos', 'POST', { name, auto_init: true }), 201);
  const page = { title: 'Home', content_base64: Buffer.from('# The wiki\n').toString('base64') };
  await ok(await h.call(`repos/root/${name}/wiki/new`, 'POST', page), 201);
}

describe('repository moves and deletes cut short by a crash', () => {
  it('rename, transfer and organization rename killed after the move are undone at the next start, and retrying works (regression: row at the old name, directory at the new one: listed but git and /branches failed, retries 500/422)', async () => {
    const data = crashTmp('hearth-crash-move-');
    const root = path.join(data, 'repositories');
    let h = await startCrashable(data, 'repo.rename.after-move');
    await ok(await h.call('orgs', 'POST', { username: 'acme' }), 201);
    await makeRepoWithWiki(h, 'proj');
    await crashOn(h, 'repos/root/proj', 'PATCH', { name: 'renamed' });
    expect(fs.existsSync(path.join(root, 'root', 'renamed.git'))).toBe(true); // the crash came after the move
    // doctor --fix before the next start leaves the half-moved repository where it is.
    const early = await runOn(data, ['doctor', '--fix']);
    expect(early.out).toContain('crash interrupted are pending');
    expect(fs.existsSync(path.join(root, 'root', 'renamed.git'))).toBe(true);

    h = await startCrashable(data, 'repo.transfer.after-move');
    await expectRecovered(h, data);
    await expectWhole(h, 'root/proj');
    expect((await ok(await h.call('repos/root/proj', 'PATCH', { name: 'renamed' }), 200)).full_name).toBe('root/renamed');
    await expectWhole(h, 'root/renamed');
    await crashOn(h, 'repos/root/renamed/transfer', 'POST', { new_owner: 'acme' });
    expect(fs.existsSync(path.join(root, 'acme', 'renamed.wiki.git'))).toBe(true);

    h = await startCrashable(data, 'owner.rename.after-move');
    await expectRecovered(h, data);
    await expectWhole(h, 'root/renamed');
    await ok(await h.call('repos/root/renamed/transfer', 'POST', { new_owner: 'acme' }), 202);
    await expectWhole(h, 'acme/renamed');
    await crashOn(h, 'orgs/acme/rename', 'POST', { new_name: 'acme2' });
    expect(fs.existsSync(path.join(root, 'acme2', 'renamed.git'))).toBe(true);

    h = await startCrashable(data);
    await expectRecovered(h, data);
    await expectWhole(h, 'acme/renamed');
    await ok(await h.call('orgs/acme/rename', 'POST', { new_name: 'acme2' }), 204);
    await expectWhole(h, 'acme2/renamed');
    await stopAndDoctor(h, data);
  }, 180_000);

  it('a delete killed before or after the commit leaves no trace and no wiki for a new repository of that name (regression: .deleting and the wiki stayed forever, the new repository took the wiki over and could not be deleted)', async () => {
    const data = crashTmp('hearth-crash-delete-');
    const owned = path.join(data, 'repositories', 'root');
    let h = await startCrashable(data, 'repo.delete.after-move');
    await makeRepoWithWiki(h, 'gone');
    await crashOn(h, 'repos/root/gone', 'DELETE');

    h = await startCrashable(data, 'repo.delete.after-commit');
    await expectRecovered(h, data);
    await expectWhole(h, 'root/gone');
    await crashOn(h, 'repos/root/gone', 'DELETE');
    expect(fs.readdirSync(owned).sort()).toEqual(['gone.git.deleting', 'gone.wiki.git.deleting']);

    h = await startCrashable(data);
    await expectRecovered(h, data);
    expect(fs.readdirSync(owned)).toEqual([]);
    await ok(await h.call('repos/root/gone'), 404);
    for (let round = 0; round < 2; round++) {
      await ok(await h.call('user/repos', 'POST', { name: 'gone', auto_init: true }), 201);
      expect((await h.call('repos/root/gone/wiki/page/Home')).status).toBe(404);
      expect(fs.existsSync(path.join(owned, 'gone.wiki.git'))).toBe(false);
      await ok(await h.call('repos/root/gone', 'DELETE'), 204);
    }
    expect(fs.readdirSync(owned)).toEqual([]);
    await stopAndDoctor(h, data);
  }, 180_000);
});

describe('the recovery of repository moves and deletes', () => {
  let s: TestServer;
  let alice: { username: string; password: string; id: number };
  const api = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/${p}`, { method, auth: as(alice), json: body });
  const at = (...parts: string[]) => path.join(s.hearth.config.repository.root, ...parts);
  const move = (from: string, to: string) => fs.renameSync(at(...from.split('/')), at(...to.split('/')));
  beforeAll(async () => {
    s = await startTestServer();
    alice = await createUser(s, 'alice');
  });
  afterAll(async () => { await s.stop(); });

  it('finishes a move the database committed, more than once without harm, and undoes a delete that did not commit', async () => {
    const repo = await ok(await api('user/repos', 'POST', { name: 'p', auto_init: true }), 201);
    await ok(await api('repos/alice/p/wiki/new', 'POST', { title: 'Home', content_base64: Buffer.from('x').toString('base64') }), 201);
    await ok(await api('repos/alice/p', 'PATCH', { name: 'q' }));
    // As if the rows committed and the directories had not moved yet.
    move('alice/q.git', 'alice/p.git');
    move('alice/q.wiki.git', 'alice/p.wiki.git');
    const moves = [{ from: at('alice', 'p.git'), to: at('alice', 'q.git') }, { from: at('alice', 'p.wiki.git'), to: at('alice', 'q.wiki.git') }];
    expect(await recoverRepoMove(s.hearth, { repoId: repo.id, moves })).toMatch(/^finished; moved/);
    expect(await recoverRepoMove(s.hearth, { repoId: repo.id, moves })).toBe('finished');
    expect(fs.readdirSync(at('alice')).sort()).toEqual(['q.git', 'q.wiki.git']);
    await ok(await api('repos/alice/q/branches'));

    // A delete killed before its commit: the row is there, the directories come back.
    move('alice/q.git', 'alice/q.git.deleting');
    move('alice/q.wiki.git', 'alice/q.wiki.git.deleting');
    const asides = moves.map((m) => ({ from: m.to, to: `${m.to}.deleting` }));
    expect(await recoverRepoDelete(s.hearth, { repoId: repo.id, moves: asides })).toMatch(/^undone; moved/);
    expect(fs.readdirSync(at('alice')).sort()).toEqual(['q.git', 'q.wiki.git']);
    await ok(await api('repos/alice/q/wiki/page/Home'));

    // An owner rename whose rows committed: the owner's directory follows the new name.
    const admin = as({ username: s.admin.username, password: s.admin.password });
    await ok(await s.request('api/v1/admin/users/alice/rename', { method: 'POST', auth: admin, json: { new_username: 'alicia' } }), 204);
    move('alicia', 'alice');
    const owner = [{ from: at('alice'), to: at('alicia') }];
    expect(await recoverOwnerMove(s.hearth, { userId: alice.id, moves: owner })).toMatch(/^finished; moved/);
    expect(await recoverOwnerMove(s.hearth, { userId: alice.id, moves: owner })).toBe('finished');
    expect(fs.readdirSync(at('alicia')).sort()).toEqual(['q.git', 'q.wiki.git']);
  });
});
