import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAdvisories } from '../../src/services/security/import';
import { isAffected } from '../../src/services/security/osv';
import { parseManifest } from '../../src/services/security/manifests';
import { compareVersions } from '../../src/services/security/versions';
import { createRepo, git, remoteUrl, tempDir, workTree } from '../helpers/git';
import { createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Dependency alerts: OSV advisories imported offline, lock files at the default branch matched
// against them on each push, alerts opened, fixed and dismissed.

type Creds = { username: string; password: string; id: number };
type Alert = {
  number: number; state: string; dependency: { package: { ecosystem: string; name: string }; version: string; manifest_path: string };
  security_advisory: { osv_id: string; summary: string; severity: string } | null; dismissed_reason: string | null;
  dismissed_by: { login: string } | null; fixed_at: string | null;
};

let s: TestServer;
let alice: Creds;
let bob: Creds;
let advisories: string;
let work: string;

const as = (u: { username: string; password: string }) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const alertsOf = async (query = ''): Promise<Alert[]> => ok(await s.request(`api/v1/repos/alice/app/security/dependency_alerts${query}`, as(alice)));

const OSV_LODASH = {
  id: 'GHSA-test-lodash', summary: 'Prototype pollution in lodash', modified: '2024-01-02T00:00:00Z', published: '2024-01-01T00:00:00Z',
  database_specific: { severity: 'HIGH' },
  affected: [{ package: { ecosystem: 'npm', name: 'lodash' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }] }],
};
const OSV_REQUESTS = {
  id: 'PYSEC-test-requests', summary: 'requests leaks headers', modified: '2024-01-02T00:00:00Z',
  affected: [{ package: { ecosystem: 'PyPI', name: 'Requests' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '2.0' }, { last_affected: '2.31.0' }] }] }],
};
const lock = (version: string) => JSON.stringify({
  name: 'app', lockfileVersion: 3, requires: true,
  packages: { '': { name: 'app', dependencies: { lodash: `^${version}` } }, 'node_modules/lodash': { version, resolved: 'x', integrity: 'y' } },
});

async function push(files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(work, name), content);
  await git(work, 'add', '-A');
  await git(work, 'commit', '-q', '-m', 'deps');
  await git(work, 'push', '-q', remoteUrl(s, 'alice', 'app', alice.username, alice.password), 'main');
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  advisories = tempDir('hearth-osv-');
  fs.mkdirSync(path.join(advisories, 'npm'));
  fs.writeFileSync(path.join(advisories, 'npm', 'GHSA-test-lodash.json'), JSON.stringify(OSV_LODASH));
  fs.writeFileSync(path.join(advisories, 'not-osv.json'), '{ broken');
  await createRepo(s, alice, 'app');
  await ok(await s.request('api/v1/repos/alice/app/collaborators/bob', { method: 'PUT', ...as(alice), json: { permission: 'write' } }), 204);
  work = await workTree({ 'README.md': 'app\n' });
  await git(work, 'push', '-q', remoteUrl(s, 'alice', 'app', alice.username, alice.password), 'main');
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(advisories, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

describe('advisory import', () => {
  it('imports a directory of OSV files, skipping unreadable ones', async () => {
    const r = await importAdvisories(s.hearth, advisories);
    expect(r).toMatchObject({ files: 2, advisories: 1, changed: 1, skipped: 1 });
    // Again: nothing changed.
    expect(await importAdvisories(s.hearth, advisories)).toMatchObject({ advisories: 1, changed: 0 });
  });
});

describe('alerts from pushes to the default branch', () => {
  it('a vulnerable package-lock.json opens an alert and notifies the repository admin', async () => {
    await push({ 'package-lock.json': lock('4.17.20') });
    await eventually(async () => (await alertsOf()).length === 1, 15_000, 'an alert');
    const [alert] = await alertsOf();
    expect(alert).toMatchObject({
      number: 1, state: 'open', dependency: { package: { ecosystem: 'npm', name: 'lodash' }, version: '4.17.20', manifest_path: 'package-lock.json' },
      security_advisory: { osv_id: 'GHSA-test-lodash', summary: 'Prototype pollution in lodash', severity: 'HIGH' }, fixed_at: null,
    });
    const threads = await ok(await s.request('api/v1/notifications?subject-type=repository', as(alice)));
    expect(threads.some((t: { repository: { full_name: string } }) => t.repository.full_name === 'alice/app')).toBe(true);
    // bob writes, but is no admin: no notice.
    expect(await ok(await s.request('api/v1/notifications?subject-type=repository', as(bob)))).toEqual([]);
  });

  it('a fixed version in the lock file fixes the alert', async () => {
    await push({ 'package-lock.json': lock('4.17.21') });
    await eventually(async () => (await alertsOf())[0]?.state === 'fixed', 15_000, 'the alert fixed');
    expect((await alertsOf('?state=fixed'))[0]!.fixed_at).toMatch(/^\d{4}-/);
    expect(await alertsOf('?state=open')).toEqual([]);
  });

  it('an import matches every repository again', async () => {
    fs.writeFileSync(path.join(advisories, 'PYSEC-test-requests.json'), JSON.stringify(OSV_REQUESTS));
    await push({ 'requirements.txt': 'flask>=2\nrequests==2.31.0  # pinned\n' });
    const r = await importAdvisories(s.hearth, advisories);
    expect(r.changed).toBe(1);
    const open = await alertsOf('?state=open');
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ number: 2, dependency: { package: { ecosystem: 'PyPI', name: 'requests' }, version: '2.31.0', manifest_path: 'requirements.txt' } });
  });

  it('imports a zip of OSV files', async () => {
    const zipped = path.join(tempDir('hearth-osvzip-'), 'all.zip');
    await promisify(execFile)('zip', ['-q', '-r', zipped, '.'], { cwd: advisories });
    expect(await importAdvisories(s.hearth, zipped)).toMatchObject({ files: 3, advisories: 2, skipped: 1 });
  });
});

describe('dismissing', () => {
  it('204 for a repository admin, with the reason and who', async () => {
    await ok(await s.request('api/v1/repos/alice/app/security/dependency_alerts/2/dismiss', { method: 'POST', ...as(alice), json: { dismiss_reason: 'not used at run time' } }), 204);
    const [alert] = await alertsOf('?state=dismissed');
    expect(alert).toMatchObject({ number: 2, dismissed_reason: 'not used at run time', dismissed_by: { login: 'alice' } });
  });

  it('404 for a missing alert, 403 for a writer, 422 for an unknown state', async () => {
    expect((await s.request('api/v1/repos/alice/app/security/dependency_alerts/99/dismiss', { method: 'POST', ...as(alice), json: {} })).status).toBe(404);
    expect((await s.request('api/v1/repos/alice/app/security/dependency_alerts/1/dismiss', { method: 'POST', ...as(bob), json: {} })).status).toBe(403);
    expect((await s.request('api/v1/repos/alice/app/security/dependency_alerts', as(bob))).status).toBe(403);
    expect((await s.request('api/v1/repos/alice/app/security/dependency_alerts?state=nope', as(alice))).status).toBe(422);
  });

  it('a dismissed alert stays dismissed when the next push still matches', async () => {
    await push({ 'requirements.txt': 'requests==2.31.0\n' });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await alertsOf()).map((a) => [a.number, a.state])).toEqual([[2, 'dismissed'], [1, 'fixed']]);
  });
});

describe('new repositories', () => {
  it('a fork is matched as soon as it is made', async () => {
    await ok(await s.request('api/v1/repos/alice/app/forks', { method: 'POST', ...as(bob), json: {} }), 202);
    const forkAlerts = async (): Promise<Alert[]> => ok(await s.request('api/v1/repos/bob/app/security/dependency_alerts', as(bob)));
    await eventually(async () => (await forkAlerts()).length === 1, 15_000, 'the fork\'s alert');
    expect((await forkAlerts())[0]).toMatchObject({ number: 1, state: 'open', dependency: { package: { name: 'requests' } } });
  });
});

describe('versions and ranges', () => {
  it.each([
    ['npm', '1.2.3', '1.2.10', -1], ['npm', '1.0.0-rc.1', '1.0.0', -1], ['npm', '1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['Go', 'v0.3.7', 'v0.3.8', -1], ['Go', 'v1.2.3+incompatible', 'v1.2.3', 0],
    ['PyPI', '2.0', '2.0.0', 0], ['PyPI', '1.0rc1', '1.0', -1], ['PyPI', '1.0.post1', '1.0', 1], ['PyPI', '1.0.dev1', '1.0a1', -1],
    ['crates.io', '0.10.0', '0.9.9', 1],
  ] as const)('%s: %s vs %s is %d', (eco, a, b, sign) => {
    expect(Math.sign(compareVersions(eco, a, b)!)).toBe(sign);
  });

  it('introduced / fixed / last_affected, and explicit versions', () => {
    const r = { ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { fixed: '1.2.0' }, { introduced: '2.0.0' }, { last_affected: '2.1.0' }] }], versions: ['0.5.0'] };
    const hit = (v: string) => isAffected('npm', v, r);
    expect([hit('0.9.0'), hit('1.0.0'), hit('1.1.9'), hit('1.2.0'), hit('2.1.0'), hit('2.1.1'), hit('0.5.0')]).toEqual([false, true, true, false, true, false, true]);
  });

  it('reads package-lock v1, poetry.lock, go.sum and Cargo.lock', () => {
    const v1 = JSON.stringify({ lockfileVersion: 1, dependencies: { a: { version: '1.0.0', dependencies: { b: { version: '2.0.0' } } } } });
    expect(parseManifest('package-lock.json', v1).map((d) => `${d.package}@${d.version}`)).toEqual(['a@1.0.0', 'b@2.0.0']);
    const poetry = '[[package]]\nname = "Django"\nversion = "4.2.1"\n\n[package.dependencies]\nx = "1"\n\n[[package]]\nname = "idna"\nversion = "3.4"\n';
    expect(parseManifest('poetry.lock', poetry).map((d) => `${d.package}@${d.version}`)).toEqual(['django@4.2.1', 'idna@3.4']);
    const sum = 'golang.org/x/net v0.7.0 h1:abc=\ngolang.org/x/net v0.7.0/go.mod h1:def=\ngithub.com/a/b v1.0.0/go.mod h1:x=\n';
    expect(parseManifest('go.sum', sum).map((d) => `${d.package}@${d.version}`)).toEqual(['golang.org/x/net@v0.7.0']);
    const cargo = '# generated\nversion = 3\n\n[[package]]\nname = "serde"\nversion = "1.0.100"\nsource = "registry"\n';
    expect(parseManifest('sub/Cargo.lock', cargo)).toEqual([{ ecosystem: 'crates.io', package: 'serde', version: '1.0.100' }]);
  });
});
