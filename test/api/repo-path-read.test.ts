import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTokenWithUser } from '../../src/models/access-token';
import { getCollaboratorMode, getRepoWithTransferFlag, getRepoWithViewerMarks } from '../../src/models/repo';
import { getCallerByNameAndRepo, getOwnerAndRepo, getOwnerAndRepoForViewer, getTokenAndRepo } from '../../src/models/repo-path';
import { getUserByName } from '../../src/models/user';
import { hashToken } from '../../src/lib/token';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, createToken, type Auth, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// A repository request's first reads in one statement (src/models/repo-path.ts): the caller, the
// owner and the repository side by side, split back into rows. The rows must be the separate
// reads' rows, value for value and type for type, and every check authentication and the
// repository guard made on the separate rows must still answer the same.

let s: TestServer;
type Creds = { username: string; password: string; id: number };
let alice: Creds;
let bob: Creds;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'Alice', { full_name: 'Alice A.' });
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'Shown', { auto_init: true, description: 'a description' });
  await createRepo(s, alice, 'hidden', { private: true });
  await createOrg(s, alice, 'guild');
  await ok(await s.request('api/v1/orgs/guild/repos', { method: 'POST', auth: as(alice), json: { name: 'guildrepo' } }), 201);
  // A fork has fork_id set and is_fork true: values the plain repository has as null and false.
  await ok(await s.request('api/v1/repos/alice/Shown/forks', { method: 'POST', auth: as(bob), json: {} }), 202);
  // A pending transfer (the flag's true side), made as the transfer service's row.
  const shown = (await getRepoWithTransferFlag(s.hearth.db, alice.id, 'shown'))!.repo;
  await s.hearth.db.insertInto('repo_transfer').values({ repo_id: shown.id, doer_id: alice.id, recipient_id: bob.id, created_unix: 1 }).execute();
});
afterAll(async () => { await s.stop(); });

describe('the fused read returns the separate reads\' rows', () => {
  it('owner and repository, for a caller by name (the owner or another) and anonymous', async () => {
    const db = s.hearth.db;
    const aliceRow = await getUserByName(db, 'alice');
    const bobRow = await getUserByName(db, 'bob');
    for (const [owner, repo] of [['alice', 'shown'], ['alice', 'hidden'], ['bob', 'shown'], ['guild', 'guildrepo']] as const) {
      const ownerRow = await getUserByName(db, owner);
      const repoRow = await getRepoWithTransferFlag(db, ownerRow!.id, repo);
      expect(repoRow, `${owner}/${repo}`).toBeDefined();
      expect(await getOwnerAndRepo(db, owner, repo)).toStrictEqual({ owner: ownerRow, repo: repoRow });
      for (const caller of [aliceRow!, bobRow!]) {
        const { collaborator, ...rows } = await getCallerByNameAndRepo(db, caller.lower_name, owner, repo);
        expect(rows).toStrictEqual({ caller, owner: ownerRow, repo: repoRow });
        // The owner's own read has no collaboration to ask (the owner has every right).
        if (caller.id !== ownerRow!.id) expect(collaborator).toStrictEqual({ userId: caller.id, mode: undefined });
      }
    }
    expect((await getOwnerAndRepo(db, 'alice', 'shown')).repo?.transferPending).toBe(true);
    expect((await getOwnerAndRepo(db, 'bob', 'shown')).repo?.repo.fork_id).toBeGreaterThan(0);
  });

  it('what is missing comes back undefined beside what is there', async () => {
    const db = s.hearth.db;
    const aliceRow = await getUserByName(db, 'alice');
    expect(await getOwnerAndRepo(db, 'nobody', 'shown')).toStrictEqual({ owner: undefined, repo: undefined });
    expect(await getOwnerAndRepo(db, 'alice', 'nothing')).toStrictEqual({ owner: aliceRow, repo: undefined });
    expect(await getCallerByNameAndRepo(db, 'nobody', 'alice', 'nothing')).toStrictEqual({ caller: undefined, owner: aliceRow, repo: undefined, collaborator: undefined });
  });

  it('the caller\'s collaboration, as getCollaboratorMode reads it (none: undefined)', async () => {
    const db = s.hearth.db;
    const dave = await createUser(s, 'dave');
    await createRepo(s, dave, 'shared', { private: true });
    await ok(await s.request('api/v1/repos/dave/shared/collaborators/bob', { method: 'PUT', auth: as(dave), json: { permission: 'write' } }), 204);
    const repo = (await getRepoWithTransferFlag(db, dave.id, 'shared'))!.repo;
    const mode = await getCollaboratorMode(db, repo.id, bob.id);
    expect(mode).toBe(2);
    expect((await getCallerByNameAndRepo(db, 'bob', 'dave', 'shared')).collaborator).toStrictEqual({ userId: bob.id, mode });
    expect((await getCallerByNameAndRepo(db, 'alice', 'dave', 'shared')).collaborator).toStrictEqual({ userId: alice.id, mode: undefined });
    expect((await getTokenAndRepo(db, hashToken(await createToken(s, bob, ['read:repository'])), 'dave', 'shared')).collaborator).toStrictEqual({ userId: bob.id, mode });
    // Over HTTP: the collaborator reads it with write access, a stranger gets 404.
    expect((await ok(await s.request('api/v1/repos/dave/shared', { auth: as(bob) }))).permissions).toMatchObject({ push: true, admin: false });
    await ok(await s.request('api/v1/repos/dave/shared', { auth: as(alice) }), 404);
  });

  it('a page viewer\'s read: the rows, the viewer\'s watch and star (as getRepoWithViewerMarks) and collaboration', async () => {
    const db = s.hearth.db;
    const fran = await createUser(s, 'fran');
    await createRepo(s, fran, 'marked', { private: true });
    await ok(await s.request('api/v1/repos/fran/marked/collaborators/bob', { method: 'PUT', auth: as(fran), json: { permission: 'read' } }), 204);
    await ok(await s.request('api/v1/user/starred/fran/marked', { method: 'PUT', auth: as(bob) }), 204);
    const franRow = await getUserByName(db, 'fran');
    for (const viewer of [bob, alice]) {
      const separate = await getRepoWithViewerMarks(db, franRow!.id, 'marked', viewer.id);
      const fused = await getOwnerAndRepoForViewer(db, viewer.id, 'fran', 'marked');
      expect(fused).toStrictEqual({
        owner: franRow, repo: separate,
        collaborator: { userId: viewer.id, mode: await getCollaboratorMode(db, separate!.repo.id, viewer.id) },
      });
    }
    expect((await getOwnerAndRepoForViewer(db, bob.id, 'fran', 'marked')).repo?.marks).toStrictEqual({ watch: false, star: true });
    expect((await getOwnerAndRepoForViewer(db, bob.id, 'fran', 'marked')).collaborator?.mode).toBe(1);
    expect(await getOwnerAndRepoForViewer(db, bob.id, 'fran', 'nothing')).toStrictEqual({ owner: franRow, repo: undefined, collaborator: undefined });
  });

  it('a token with its account, as getTokenWithUser reads it', async () => {
    const db = s.hearth.db;
    const token = await createToken(s, bob, ['read:repository']);
    const hash = hashToken(token);
    const separate = await getTokenWithUser(db, hash);
    const fused = await getTokenAndRepo(db, hash, 'alice', 'shown');
    expect(fused.token).toStrictEqual(separate);
    expect(fused.caller).toStrictEqual(await getUserByName(db, 'bob'));
    expect(fused.owner).toStrictEqual(await getUserByName(db, 'alice'));
    expect(fused.repo).toStrictEqual(await getRepoWithTransferFlag(db, alice.id, 'shown'));
    const unknown = await getTokenAndRepo(db, hashToken('0'.repeat(40)), 'alice', 'shown');
    expect(unknown.token).toBeUndefined();
    expect(unknown.owner?.id).toBe(alice.id);
  });
});

describe('GET /repos/{owner}/{repo} with the caller read beside the repository', () => {
  const get = (path: string, auth: Auth) => s.request(`api/v1/repos/${path}`, { auth });

  it('the owner by Basic credentials and by token; another user; anonymous', async () => {
    expect((await ok(await get('alice/Shown', as(alice)))).full_name).toBe('Alice/Shown');
    expect((await ok(await get('ALICE/shown', as(bob)))).permissions).toMatchObject({ admin: false, pull: true });
    expect((await ok(await get('alice/shown', undefined))).name).toBe('Shown');
    const token = await createToken(s, alice, ['read:repository']);
    expect((await ok(await get('alice/hidden', { token }))).private).toBe(true);
  });

  it('a private repository a stranger asks for is 404, by password or by token', async () => {
    await ok(await get('alice/hidden', as(bob)), 404);
    await ok(await get('alice/hidden', { token: await createToken(s, bob, ['read:repository']) }), 404);
    await ok(await get('alice/hidden', undefined), 404);
  });

  it('a wrong password or an unknown token is 401, whatever repository the path names', async () => {
    await ok(await get('alice/Shown', { basic: ['alice', 'wrong'] }), 401);
    await ok(await get('alice/Shown', { basic: ['nobody', 'wrong'] }), 401);
    await ok(await get('alice/Shown', { token: 'f'.repeat(40) }), 401);
  });

  it('a token without repository scope is refused', async () => {
    const token = await createToken(s, alice, ['read:user']);
    await ok(await get('alice/Shown', { token }), 403);
  });

  it('an organization\'s repository; an organization never signs in', async () => {
    expect((await ok(await get('guild/guildrepo', as(alice)))).owner.login).toBe('guild');
    await ok(await get('guild/guildrepo', { basic: ['guild', 'anything'] }), 401);
  });

  it('a renamed owner and a renamed repository redirect, as before', async () => {
    const carol = await createUser(s, 'carol');
    await createRepo(s, carol, 'old');
    await ok(await s.request('api/v1/repos/carol/old', { method: 'PATCH', auth: as(carol), json: { name: 'new' } }));
    const moved = await s.request('api/v1/repos/carol/old', { auth: as(carol), redirect: 'manual' });
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toMatch(/\/api\/v1\/repos\/carol\/new$/);
    await ok(await s.request('api/v1/admin/users/carol/rename', { method: 'POST', auth: as(s.admin as Creds), json: { new_username: 'carla' } }), 204);
    const renamed = await s.request('api/v1/repos/carol/new', { auth: { basic: ['carla', carol.password] }, redirect: 'manual' });
    expect(renamed.status).toBe(307);
    expect(renamed.headers.get('location')).toMatch(/\/api\/v1\/repos\/carla\/new$/);
  });

  it('an inactive or login-prohibited account may not read through the fused path', async () => {
    const dan = await createUser(s, 'dan');
    await createRepo(s, dan, 'mine');
    await ok(await s.request('api/v1/admin/users/dan', { method: 'PATCH', auth: as(s.admin as Creds), json: { login_name: 'dan', source_id: 0, prohibit_login: true } }));
    await ok(await get('dan/mine', as(dan)), 403);
  });

  it('a user who must change the password is answered 403', async () => {
    const erin = await createUser(s, 'erin');
    await createRepo(s, erin, 'mine');
    await ok(await s.request('api/v1/admin/users/erin', { method: 'PATCH', auth: as(s.admin as Creds), json: { login_name: 'erin', source_id: 0, must_change_password: true } }));
    await ok(await get('erin/mine', as(erin)), 403);
  });

  it('sudo reads the repository as the user acted as', async () => {
    await ok(await s.request('api/v1/repos/alice/hidden', { auth: as(s.admin as Creds), headers: { Sudo: 'bob' } }), 404);
    await ok(await s.request('api/v1/repos/alice/hidden', { auth: as(s.admin as Creds), headers: { Sudo: 'alice' } }));
  });
});
