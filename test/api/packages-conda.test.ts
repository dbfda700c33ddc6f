/* eslint-disable @typescript-eslint/no-explicit-any */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { hasCommand, putBody, run } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Conda registry over HTTP as conda uses it (no conda client on Debian): upload of
// .tar.bz2 and .conda packages into channels, repodata.json per subdir, downloads.

const hasZstd = hasCommand('zstd');
let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const base = (owner: string) => `api/packages/${owner}/conda`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const BUILD = `
import io, json, os, sys, tarfile, zipfile, subprocess
out, name, version, subdir, fmt = sys.argv[1:6]
index = {"name": name, "version": version, "build": "py_0", "build_number": 0, "subdir": subdir, "depends": ["python >=3.8"], "license": "MIT", "arch": None, "platform": None}
about = {"summary": name + " for the test", "home": "https://example.com/", "license": "MIT", "description": "A tiny package."}
files = {"info/index.json": json.dumps(index), "info/about.json": json.dumps(about)}
def tar(path, mode, entries):
    with tarfile.open(path, mode) as t:
        for p, c in entries.items():
            data = c.encode(); info = tarfile.TarInfo(p); info.size = len(data); t.addfile(info, io.BytesIO(data))
stem = f"{name}-{version}-py_0"
if fmt == "tar.bz2":
    tar(os.path.join(out, stem + ".tar.bz2"), "w:bz2", {**files, "site-packages/" + name + ".py": "x = 1\\n"})
else:
    tar(os.path.join(out, "info.tar"), "w", files)
    tar(os.path.join(out, "pkg.tar"), "w", {"site-packages/" + name + ".py": "x = 1\\n"})
    for n in ("info", "pkg"): subprocess.run(["zstd", "-q", "-f", os.path.join(out, n + ".tar")], check=True)
    with zipfile.ZipFile(os.path.join(out, stem + ".conda"), "w") as z:
        z.writestr("metadata.json", json.dumps({"conda_pkg_format_version": 2}))
        z.write(os.path.join(out, "pkg.tar.zst"), "pkg-" + stem + ".tar.zst")
        z.write(os.path.join(out, "info.tar.zst"), "info-" + stem + ".tar.zst")
`;

async function build(name: string, version: string, subdir: string, fmt: 'tar.bz2' | 'conda'): Promise<{ file: string; data: Buffer }> {
  const dir = fs.mkdtempSync(path.join(work, 'conda-'));
  await run('python3', ['-c', BUILD, dir, name, version, subdir, fmt]);
  const file = `${name}-${version}-py_0.${fmt}`;
  return { file, data: fs.readFileSync(path.join(dir, file)) };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'conda-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-conda-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('conda registry (HTTP, no conda client on Debian)', () => {
  it('a .tar.bz2 upload is listed in its channel\'s repodata.json with its hashes and downloads byte for byte', async () => {
    const pkg = await build('tinyconda', '1.0.0', 'noarch', 'tar.bz2');
    expect((await putBody(s, `${base(alice.username)}/main/${pkg.file}`, pkg.data, { token })).status).toBe(201);
    const repodata = await (await s.request(`${base(alice.username)}/main/noarch/repodata.json`)).json() as any;
    expect(repodata.info).toEqual({ subdir: 'noarch' });
    expect(repodata.packages[pkg.file]).toMatchObject({ name: 'tinyconda', version: '1.0.0', build: 'py_0', depends: ['python >=3.8'], sha256: sha256(pkg.data), size: pkg.data.length });
    const file = await s.request(`${base(alice.username)}/main/noarch/${pkg.file}`);
    expect(file.status).toBe(200);
    expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(sha256(pkg.data));
    const other = await (await s.request(`${base(alice.username)}/noarch/repodata.json`)).json() as any;
    expect(other.packages).toEqual({});
  });

  it.skipIf(!hasZstd)('a .conda upload goes under packages.conda; the same file again is 409', async () => {
    const pkg = await build('newconda', '2.0', 'linux-64', 'conda');
    expect((await putBody(s, `${base(alice.username)}/${pkg.file}`, pkg.data, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}/${pkg.file}`, pkg.data, { token })).status).toBe(409);
    const repodata = await (await s.request(`${base(alice.username)}/linux-64/repodata.json`)).json() as any;
    expect(repodata['packages.conda'][pkg.file]).toMatchObject({ name: 'newconda', version: '2.0', sha256: sha256(pkg.data) });
    const api = await (await s.request(`api/v1/packages/${alice.username}/conda/newconda/2.0`, { auth: as(alice) })).json();
    expect(api).toMatchObject({ type: 'conda', name: 'newconda', version: '2.0' });
  });

  it('bad input is 400; a read:package token is 401; a private organization is hidden from anonymous clients', async () => {
    const junk = await putBody(s, `${base(alice.username)}/main/junk-1.0-0.tar.bz2`, Buffer.from('not bzip2'), { token });
    expect(junk.status).toBe(400);
    expect(await junk.json()).toMatchObject({ reason: 'Bad Request' });
    const reader = await createToken(s, alice, ['read:package']);
    const pkg = await build('roconda', '1.0', 'noarch', 'tar.bz2');
    expect((await putBody(s, `${base(alice.username)}/main/${pkg.file}`, pkg.data, { token: reader })).status).toBe(401);
    await createOrg(s, alice, 'conda-secret', { visibility: 'private' });
    expect((await putBody(s, `${base('conda-secret')}/${pkg.file}`, pkg.data, { token })).status).toBe(201);
    expect((await s.request(`${base('conda-secret')}/noarch/repodata.json`)).status).toBe(401);
    expect((await s.request(`${base('conda-secret')}/noarch/repodata.json`, { auth: as(alice) })).status).toBe(200);
  });
});

describe('conda limits', () => {
  it('limit_size_conda refuses a larger file with 403 and keeps nothing; the owner count limit too', async () => {
    const limited = await startTestServer({ HEARTH__PACKAGES__LIMIT_SIZE_CONDA: '4000', HEARTH__PACKAGES__LIMIT_TOTAL_OWNER_COUNT: '1' });
    try {
      const bob = await createUser(limited, 'conda-bob');
      const t = await createToken(limited, bob, ['write:package']);
      const big = Buffer.concat([await build('bigconda', '1.0', 'noarch', 'tar.bz2').then((p) => p.data), crypto.randomBytes(5000)]);
      const res = await limited.request(`api/packages/${bob.username}/conda/bigconda-1.0-py_0.tar.bz2`, { method: 'PUT', body: big as unknown as Blob, auth: { token: t } });
      expect(res.status).toBe(403);
      expect(fs.readdirSync(path.join(limited.dataDir, 'packages', 'tmp'))).toEqual([]);
      expect(fs.existsSync(path.join(limited.dataDir, 'packages', 'blobs'))).toBe(false);
      const small = await build('small', '1.0', 'noarch', 'tar.bz2');
      const second = await build('small', '2.0', 'noarch', 'tar.bz2');
      expect(small.data.length).toBeLessThan(4000);
      expect((await limited.request(`api/packages/${bob.username}/conda/${small.file}`, { method: 'PUT', body: small.data as unknown as Blob, auth: { token: t } })).status).toBe(201);
      const over = await limited.request(`api/packages/${bob.username}/conda/${second.file}`, { method: 'PUT', body: second.data as unknown as Blob, auth: { token: t } });
      expect(over.status).toBe(403);
      expect(await over.json()).toMatchObject({ message: 'maximum allowed package count exceeded' });
    } finally {
      await limited.stop();
    }
  });
});
