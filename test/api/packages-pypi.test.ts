import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobPath } from '../../src/services/packages/blob-store';
import { eventually } from '../helpers/wait';
import { as, createToken, createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's PyPI registry: twine uploads, the PEP 503 simple page pip installs from, downloads.

const run = promisify(execFile);
const TWINE = '/usr/bin/twine';
const hasTwine = fs.existsSync(TWINE);
const hasPip = (() => { try { execFileSync('python3', ['-m', 'pip', '--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();
// Said aloud: a client test that cannot run is skipped with its reason, never silently.
if (!hasTwine) console.warn(`packages-pypi: ${TWINE} is missing, the twine tests are skipped`);
if (!hasPip) console.warn('packages-pypi: python3 -m pip is missing, the pip install test is skipped');

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const port = () => new URL(s.hearth.config.server.root_url).port;
const registry = (owner: string) => `http://127.0.0.1:${port()}/api/packages/${owner}/pypi`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

// A wheel and an sdist built by hand (no setuptools/wheel needed, PyPI is not reachable).
const BUILD = `
import base64, hashlib, io, os, sys, tarfile, zipfile
out, name, mod, ver = sys.argv[1:5]
meta = f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {ver}\\nSummary: A tiny test package\\nHome-page: https://example.com/home\\nAuthor: Alice\\nLicense: MIT\\nKeywords: test,tiny\\nClassifier: Programming Language :: Python :: 3\\nRequires-Python: >=3.7\\n\\nLong description.\\n"
init = f"VALUE = '{name} {ver}'\\n"
dist = f"{mod}-{ver}.dist-info"
files = {f"{mod.lower()}/__init__.py": init, f"{dist}/METADATA": meta,
         f"{dist}/WHEEL": "Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
def rec(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data.encode()).digest()).rstrip(b"=").decode()
    return f"sha256={d},{len(data.encode())}"
record = "".join(f"{p},{rec(c)}\\n" for p, c in files.items()) + f"{dist}/RECORD,,\\n"
with zipfile.ZipFile(os.path.join(out, f"{mod}-{ver}-py3-none-any.whl"), "w") as z:
    for p, c in files.items(): z.writestr(p, c)
    z.writestr(f"{dist}/RECORD", record)
with tarfile.open(os.path.join(out, f"{mod}-{ver}.tar.gz"), "w:gz") as t:
    for p, c in {"PKG-INFO": meta, f"{mod.lower()}/__init__.py": init}.items():
        data = c.encode(); info = tarfile.TarInfo(f"{mod}-{ver}/{p}"); info.size = len(data)
        t.addfile(info, io.BytesIO(data))
`;

async function build(name: string, version: string): Promise<{ wheel: string; sdist: string }> {
  const mod = name.replace(/[-.]/g, '_');
  const dir = fs.mkdtempSync(path.join(work, 'dist-'));
  await run('python3', ['-c', BUILD, dir, name, mod, version]);
  return { wheel: path.join(dir, `${mod}-${version}-py3-none-any.whl`), sdist: path.join(dir, `${mod}-${version}.tar.gz`) };
}

/** twine upload; resolves with its exit code and output (never throws). */
async function twine(owner: string, user: string, password: string, files: string[]): Promise<{ code: number; out: string }> {
  const args = ['upload', '--repository-url', registry(owner), '-u', user, '-p', password, '--non-interactive', '--disable-progress-bar', ...files];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' };
  try {
    const r = await run(TWINE, args, { env, timeout: 60_000 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** A multipart upload as twine sends it, with the fields given (for the error cases). */
function form(fields: Record<string, string>, filename: string, content: Buffer, fileFirst = false): FormData {
  const f = new FormData();
  if (fileFirst) f.append('content', new Blob([content]), filename);
  f.append(':action', 'file_upload');
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (!fileFirst) f.append('content', new Blob([content]), filename);
  return f;
}
const post = (owner: string, body: FormData, auth: Auth) => s.request(`api/packages/${owner}/pypi`, { method: 'POST', body, auth });
const rowsOf = (name: string) => s.hearth.db.selectFrom('package as p').leftJoin('package_version as v', 'v.package_id', 'p.id')
  .select(['p.name', 'v.version', 'v.metadata_json']).where('p.lower_name', '=', name.toLowerCase()).execute();

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'pypi-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pypi-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('pypi registry with twine and pip', () => {
  it.skipIf(!hasTwine)('twine uploads a wheel and an sdist into one version with Gitea\'s metadata', async () => {
    const { wheel, sdist } = await build('Tiny_Pkg', '1.0.0');
    const r = await twine(alice.username, alice.username, token, [wheel, sdist]);
    expect(r.out).not.toMatch(/HTTPError/);
    expect(r.code).toBe(0);
    const rows = await rowsOf('tiny-pkg');
    expect(rows.map((x) => [x.name, x.version])).toEqual([['Tiny-Pkg', '1.0.0']]);
    const meta = JSON.parse(rows[0]!.metadata_json!);
    expect(meta).toMatchObject({ author: 'Alice', summary: 'A tiny test package', license: 'MIT', requires_python: '>=3.7', project_url: 'https://example.com/home' });
    const files = await s.hearth.db.selectFrom('package_file').select(['name', 'is_lead']).orderBy('id').execute();
    expect(files.filter((f) => f.name.startsWith('Tiny_Pkg')).map((f) => [f.name, f.is_lead])).toEqual([
      ['Tiny_Pkg-1.0.0-py3-none-any.whl', 1], ['Tiny_Pkg-1.0.0.tar.gz', 1],
    ]);
  });

  it.skipIf(!hasTwine)('twine uploading the same file again gets 409', async () => {
    const { wheel } = await build('Tiny_Pkg', '1.0.0');
    const r = await twine(alice.username, alice.username, token, [wheel]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/409/);
  });

  it.skipIf(!hasTwine || !hasPip)('pip installs the package from the simple index and python imports it', async () => {
    const target = fs.mkdtempSync(path.join(work, 'target-'));
    const index = `http://${alice.username}:${token}@127.0.0.1:${port()}/api/packages/${alice.username}/pypi/simple/`;
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, PIP_NO_INPUT: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_CACHE_DIR: '1' };
    await run('python3', ['-m', 'pip', 'install', '--index-url', index, '--no-deps', '--only-binary', ':all:', '--target', target, 'tiny.pkg'], { env, timeout: 120_000 });
    const out = await run('python3', ['-c', 'import tiny_pkg; print(tiny_pkg.VALUE)'], { env: { ...env, PYTHONPATH: target } });
    expect(out.stdout.trim()).toBe('Tiny_Pkg 1.0.0');
  });
});

describe('pypi simple page and downloads', () => {
  it('lists every file with its sha256 (matching the downloaded bytes) and data-requires-python', async () => {
    const { wheel, sdist } = await build('Page-Pkg', '2.0.0');
    for (const file of [wheel, sdist]) {
      const content = fs.readFileSync(file);
      const body = form({ name: 'Page-Pkg', version: '2.0.0', sha256_digest: sha256(content), requires_python: '>=3.8', summary: 's' }, path.basename(file), content);
      expect((await post(alice.username, body, as(alice))).status).toBe(201);
    }
    // Any spelling of the name finds the project (PEP 503).
    const res = await s.request(`api/packages/${alice.username}/pypi/simple/page_pkg/`, { auth: as(alice) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<title>Links for Page-Pkg</title>');
    const links = [...html.matchAll(/<a href="([^"]+)" data-requires-python="&#62;=3.8">([^<]+)<\/a><br>/g)];
    expect(links.map((l) => l[2])).toEqual(['Page_Pkg-2.0.0-py3-none-any.whl', 'Page_Pkg-2.0.0.tar.gz']);
    for (const [, href, name] of links) {
      const [url, frag] = href!.split('#');
      expect(url).toBe(`${registry(alice.username)}/files/page-pkg/2.0.0/${name}`);
      const dl = await fetch(url!, { headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}` } });
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-disposition')).toContain(`filename="${name}"`);
      const bytes = Buffer.from(await dl.arrayBuffer());
      expect(frag).toBe(`sha256=${sha256(bytes)}`);
      expect(bytes).toEqual(fs.readFileSync(name!.endsWith('.whl') ? wheel : sdist));
    }
  });

  it('answers 404 for an unknown project and an unknown file', async () => {
    expect((await s.request(`api/packages/${alice.username}/pypi/simple/nothing-here`, { auth: as(alice) })).status).toBe(404);
    expect((await s.request(`api/packages/${alice.username}/pypi/files/page-pkg/2.0.0/missing.whl`, { auth: as(alice) })).status).toBe(404);
  });
});

describe('pypi upload errors leave nothing behind', () => {
  const content = Buffer.from('not really a wheel');
  const ok = { name: 'err-pkg', version: '1.0', sha256_digest: sha256(content) };

  it('a wrong sha256_digest is 400 "hash mismatch" with no version and no blob file', async () => {
    const res = await post(alice.username, form({ ...ok, sha256_digest: '0'.repeat(64) }, 'err_pkg-1.0.tar.gz', content), as(alice));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('hash mismatch');
    expect(await rowsOf('err-pkg')).toEqual([]);
    expect(fs.existsSync(blobPath(s.dataDir, sha256(content)))).toBe(false);
  });

  it('an invalid name, version or filename is 400', async () => {
    const bad = [
      form({ ...ok, name: '-bad-' }, 'x.tar.gz', content),
      form({ ...ok, version: 'one.two' }, 'x.tar.gz', content),
      form(ok, '..', content),
    ];
    for (const body of bad) expect((await post(alice.username, body, as(alice))).status).toBe(400);
    const noFile = new FormData();
    for (const [k, v] of Object.entries(ok)) noFile.append(k, v);
    expect((await post(alice.username, noFile, as(alice))).status).toBe(400);
    expect(await rowsOf('err-pkg')).toEqual([]);
  });

  it('the same file twice is 409; another file joins the version', async () => {
    expect((await post(alice.username, form(ok, 'err_pkg-1.0.tar.gz', content), as(alice))).status).toBe(201);
    expect((await post(alice.username, form(ok, 'err_pkg-1.0.tar.gz', content), as(alice))).status).toBe(409);
    // The fields may follow the file (as Gitea's own tests send them).
    expect((await post(alice.username, form(ok, 'err_pkg-1.0.zip', content, true), as(alice))).status).toBe(201);
    expect((await rowsOf('err-pkg')).length).toBe(1);
  });

  it('an upload cut off by the client leaves no version and no temp file', async () => {
    const boundary = 'cut-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\ncut-pkg\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n1.0\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="cut_pkg-1.0.tar.gz"\r\n`
      + 'Content-Type: application/octet-stream\r\n\r\n';
    await new Promise<void>((resolve) => {
      const req = http.request(`${registry(alice.username)}`, {
        method: 'POST', auth: `${alice.username}:${alice.password}`,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + 1_000_000) },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(head);
      req.write(Buffer.alloc(100_000, 1), () => setTimeout(() => { req.destroy(); resolve(); }, 200));
    });
    const tmp = path.join(s.dataDir, 'packages', 'tmp');
    await eventually(async () => (fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).length === 0, 5_000, 'the temp file removed');
    expect(await rowsOf('cut-pkg')).toEqual([]);
  });
});

describe('pypi access', () => {
  it('a private owner: 401 to anonymous reads and uploads, served to the owner\'s token', async () => {
    const hidden = await createUser(s, 'pypi-hidden', { visibility: 'private' });
    const content = Buffer.from('private bytes');
    const body = () => form({ name: 'secret', version: '1.0', sha256_digest: sha256(content) }, 'secret-1.0.tar.gz', content);
    expect((await post(hidden.username, body(), undefined)).status).toBe(401);
    expect((await post(hidden.username, body(), as(hidden))).status).toBe(201);
    const anon = await s.request(`api/packages/${hidden.username}/pypi/simple/secret`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await s.request(`api/packages/${hidden.username}/pypi/files/secret/1.0/secret-1.0.tar.gz`)).status).toBe(401);
    const hiddenToken = await createToken(s, hidden, ['read:package']);
    expect((await s.request(`api/packages/${hidden.username}/pypi/simple/secret`, { auth: { basic: [hidden.username, hiddenToken] } })).status).toBe(200);
  });

  it('a read-only token cannot upload (401)', async () => {
    const readOnly = await createToken(s, alice, ['read:package']);
    const content = Buffer.from('ro');
    const res = await post(alice.username, form({ name: 'ro', version: '1.0', sha256_digest: sha256(content) }, 'ro-1.0.tar.gz', content), { basic: [alice.username, readOnly] });
    expect(res.status).toBe(401);
  });
});

describe('pypi limits', () => {
  it('a file over [packages] LIMIT_SIZE_PYPI is cut while it streams: 403, nothing stored', async () => {
    const limited = await startTestServer({ HEARTH__PACKAGES__LIMIT_SIZE_PYPI: '10' });
    try {
      const u = await createUser(limited, 'pypi-limited');
      const content = Buffer.alloc(100, 7);
      const res = await limited.request(`api/packages/${u.username}/pypi`, {
        method: 'POST', auth: as(u), body: form({ name: 'big', version: '1.0', sha256_digest: sha256(content) }, 'big-1.0.tar.gz', content),
      });
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('maximum allowed package type size exceeded');
      expect(await limited.hearth.db.selectFrom('package').select('id').execute()).toEqual([]);
      expect(fs.existsSync(blobPath(limited.dataDir, sha256(content)))).toBe(false);
    } finally {
      await limited.stop();
    }
  });
});
