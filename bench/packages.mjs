// Package registries under load, against baselines, in one run:
// (a) `npm install` of a project depending on 50 small packages from hearth's npm registry
//     against the same 50 packages (same packuments and tarballs) served by a bare static file
//     server (verdaccio does not install here: its node-fetch@cjs dist-tag is missing from the
//     registry), a cold npm cache each run, median of 3, with the ratio (target within 1.0x);
// (b) a 500 MB container layer pushed and pulled with skopeo against hearth's /v2: throughput
//     against a plain `cp` of the file, and hearth's peak RSS while it streams (target: flat,
//     under 150 MB).
// (c) apt-get update + download of 30 packages against static files, and a Debian index of
//     1,000 packages rebuilt (bench/packages-apt.mjs).
// BENCH_ONLY=npm|container|apt runs one part.
// Usage: node bench/packages.mjs [layer MB=500] [npm runs=3]   (dist/hearth when built, else the source via tsx)
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { freePort, median, rssTree, startHearth, time } from './lib.mjs';
import { benchApt, benchDebianIndex } from './packages-apt.mjs';

const run = promisify(execFile);
const layerMB = Number(process.argv[2] ?? 500);
const runs = Number(process.argv[3] ?? 3);
const PACKAGES = 50;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-packages-'));
const mb = (bytes) => (bytes / 1048576).toFixed(0);

/** A small package as npm packs it: package/package.json and package/index.js in a .tgz. */
async function makeTarball(dir, name) {
  const pkgDir = path.join(dir, name, 'package');
  fs.mkdirSync(pkgDir, { recursive: true });
  const manifest = { name, version: '1.0.0', main: 'index.js', description: `bench package ${name}`, license: 'MIT' };
  fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(pkgDir, 'index.js'), `module.exports = ${JSON.stringify(name)};\n${'// filler\n'.repeat(200)}`);
  const file = path.join(dir, `${name}-1.0.0.tgz`);
  await run('tar', ['czf', file, '-C', path.join(dir, name), 'package']);
  const data = fs.readFileSync(file);
  return {
    manifest, data, file,
    shasum: crypto.createHash('sha1').update(data).digest('hex'),
    integrity: `sha512-${crypto.createHash('sha512').update(data).digest('base64')}`,
  };
}

/** Publishes as `npm publish` does: PUT /{name} with the version and the tarball attached. */
async function publish(h, token, p) {
  const { name } = p.manifest;
  const body = {
    _id: name, name, 'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': { ...p.manifest, _id: `${name}@1.0.0`, dist: { shasum: p.shasum, integrity: p.integrity, tarball: `${h.npm}${name}/-/${name}-1.0.0.tgz` } } },
    _attachments: { [`${name}-1.0.0.tgz`]: { content_type: 'application/octet-stream', data: p.data.toString('base64'), length: p.data.length } },
  };
  const res = await fetch(`${h.npm}${name}`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`publishing ${name} to hearth: ${res.status} ${await res.text()}`);
}

/** The baseline: packuments and tarballs as static files, streamed by a bare node http server in its own process. */
async function startStatic(dir, pkgs) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  for (const p of pkgs) {
    const { name } = p.manifest;
    const doc = { _id: name, name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { ...p.manifest, dist: { shasum: p.shasum, integrity: p.integrity, tarball: `${base}${name}/-/${name}-1.0.0.tgz` } } } };
    fs.mkdirSync(path.join(dir, name, '-'), { recursive: true });
    fs.writeFileSync(path.join(dir, name, 'index.json'), JSON.stringify(doc));
    fs.copyFileSync(p.file, path.join(dir, name, '-', `${name}-1.0.0.tgz`));
  }
  const code = `const http=require('http'),fs=require('fs'),path=require('path');const dir=process.argv[1];
http.createServer((req,res)=>{const u=decodeURIComponent(req.url.split('?')[0]);const f=u.endsWith('.tgz')?path.join(dir,u):path.join(dir,u,'index.json');
fs.stat(f,(e,st)=>{if(e){res.writeHead(404);return res.end();}res.writeHead(200,{'Content-Type':u.endsWith('.tgz')?'application/octet-stream':'application/json','Content-Length':st.size});fs.createReadStream(f).pipe(res);});})
.listen(${port},'127.0.0.1',()=>console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  return { child, base };
}

/** One `npm install` of the project from `registry` with a cold cache; ms. */
async function npmInstall(project, registry) {
  fs.rmSync(path.join(project, 'node_modules'), { recursive: true, force: true });
  fs.rmSync(path.join(project, 'package-lock.json'), { force: true });
  const cache = fs.mkdtempSync(path.join(tmp, 'npm-cache-'));
  const ms = await time(() => run('npm', ['install', '--registry', registry, '--cache', cache, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel', 'error'], { cwd: project }));
  if (fs.readdirSync(path.join(project, 'node_modules')).filter((n) => n.startsWith('bench-pkg-')).length !== PACKAGES) throw new Error('npm install missed packages');
  fs.rmSync(cache, { recursive: true, force: true });
  return ms;
}

async function benchNpm(h, token) {
  const pkgs = [];
  for (let i = 0; i < PACKAGES; i++) pkgs.push(await makeTarball(path.join(tmp, 'npm-src'), `bench-pkg-${String(i).padStart(2, '0')}`));
  for (const p of pkgs) await publish(h, token, p);
  const bare = await startStatic(path.join(tmp, 'npm-static'), pkgs);
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'bench-project', version: '1.0.0', private: true, dependencies: Object.fromEntries(pkgs.map((p) => [p.manifest.name, '1.0.0'])) }));
  const a = [];
  const b = [];
  // Interleaved so that drift on the machine touches both sides alike.
  for (let r = 0; r < runs; r++) { a.push(await npmInstall(project, h.npm)); b.push(await npmInstall(project, bare.base)); }
  bare.child.kill();
  const [ha, bb] = [median(a), median(b)];
  console.log(`npm install, ${PACKAGES} packages, cold cache, median of ${runs}: hearth ${ha.toFixed(0)} ms | static files ${bb.toFixed(0)} ms | ratio ${(ha / bb).toFixed(2)}x (target within 1.0x)`);
}

/** A tar header (ustar) for one regular file. */
function tarHeader(name, size) {
  const h = Buffer.alloc(512);
  const field = (off, len, s) => h.write(s, off, len, 'ascii');
  field(0, 100, name); field(100, 8, '0000644\0'); field(108, 8, '0000000\0'); field(116, 8, '0000000\0');
  field(124, 12, `${size.toString(8).padStart(11, '0')}\0`); field(136, 12, `${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`);
  field(148, 8, '        '); field(156, 1, '0'); field(257, 6, 'ustar\0'); field(263, 2, '00');
  let sum = 0;
  for (const byte of h) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/**
 * An OCI image layout with one layer of `bytes` random bytes, gzipped at level 0 (stored blocks)
 * so that skopeo sends it as it is instead of compressing it on the way; returns the layer's path.
 */
async function makeImage(dir, bytes) {
  const blobs = path.join(dir, 'blobs', 'sha256');
  fs.mkdirSync(blobs, { recursive: true });
  const tmpLayer = path.join(dir, 'layer.tar.gz');
  const gzip = zlib.createGzip({ level: 0 });
  const blobHash = crypto.createHash('sha256');
  gzip.on('data', (b) => blobHash.update(b));
  const written = pipeline(gzip, fs.createWriteStream(tmpLayer));
  const diffHash = crypto.createHash('sha256');
  const put = async (buf) => { diffHash.update(buf); if (!gzip.write(buf)) await new Promise((r) => gzip.once('drain', r)); };
  await put(tarHeader('data.bin', bytes));
  const chunk = 4 << 20;
  for (let done = 0; done < bytes; done += chunk) await put(crypto.randomBytes(Math.min(chunk, bytes - done)));
  await put(Buffer.alloc((512 - (bytes % 512)) % 512 + 1024));
  gzip.end();
  await written;
  const layerDigest = blobHash.digest('hex');
  const layerPath = path.join(blobs, layerDigest);
  fs.renameSync(tmpLayer, layerPath);
  const blob = (obj) => { const data = Buffer.from(JSON.stringify(obj)); const d = crypto.createHash('sha256').update(data).digest('hex'); fs.writeFileSync(path.join(blobs, d), data); return { digest: `sha256:${d}`, size: data.length }; };
  const config = blob({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [`sha256:${diffHash.digest('hex')}`] }, config: {} });
  const manifest = blob({
    schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${layerDigest}`, size: fs.statSync(layerPath).size }],
  });
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'org.opencontainers.image.ref.name': 'latest' } }] }));
  return layerPath;
}

/** Runs fn while sampling hearth's RSS every 50 ms; returns {ms, peak}. */
async function sampled(pid, fn) {
  let peak = rssTree(pid);
  const timer = setInterval(() => { peak = Math.max(peak, rssTree(pid)); }, 50);
  try { return { ms: await time(fn), peak }; } finally { clearInterval(timer); peak = Math.max(peak, rssTree(pid)); }
}

async function benchContainer(h, token) {
  const image = path.join(tmp, 'image');
  const layer = await makeImage(image, layerMB * 1048576);
  const size = fs.statSync(layer).size;
  const cp = await time(() => run('cp', [layer, path.join(tmp, 'layer-copy')]));
  fs.rmSync(path.join(tmp, 'layer-copy'), { force: true });
  const host = `127.0.0.1:${h.port}`;
  const creds = `root:${token}`;
  const idle = rssTree(h.child.pid);
  const push = await sampled(h.child.pid, () => run('skopeo', ['copy', '--quiet', '--dest-tls-verify=false', '--dest-creds', creds, `oci:${image}:latest`, `docker://${host}/root/bench:latest`], { maxBuffer: 1 << 24 }));
  const pulled = path.join(tmp, 'pulled');
  const pull = await sampled(h.child.pid, () => run('skopeo', ['copy', '--quiet', '--src-tls-verify=false', '--src-creds', creds, `docker://${host}/root/bench:latest`, `dir:${pulled}`], { maxBuffer: 1 << 24 }));
  const got = fs.readdirSync(pulled).map((f) => fs.statSync(path.join(pulled, f)).size);
  if (!got.includes(size)) throw new Error(`the pulled image has no ${size}-byte layer: ${got.join(', ')}`);
  const rate = (ms) => `${(size / 1048576 / (ms / 1000)).toFixed(0)} MB/s`;
  console.log(`container layer ${mb(size)} MB: cp ${cp.toFixed(0)} ms (${rate(cp)})`);
  console.log(`  skopeo push ${push.ms.toFixed(0)} ms (${rate(push.ms)}, ${(push.ms / cp).toFixed(1)}x cp) | peak RSS ${mb(push.peak)} MB`);
  console.log(`  skopeo pull ${pull.ms.toFixed(0)} ms (${rate(pull.ms)}, ${(pull.ms / cp).toFixed(1)}x cp) | peak RSS ${mb(pull.peak)} MB`);
  console.log(`  hearth RSS idle before the push ${mb(idle)} MB (target: flat, peak under 150 MB)`);
}

let h;
try {
  h = await startHearth(path.join(tmp, 'data'));
  h.npm = `${h.base}api/packages/root/npm/`;
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const res = await fetch(`${h.base}api/v1/users/root/tokens`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'bench', scopes: ['write:package'] }) });
  if (res.status !== 201) throw new Error(`creating a token: ${res.status} ${await res.text()}`);
  const { sha1: token } = await res.json();
  console.log(`${h.exe.endsWith('hearth') ? 'dist/hearth' : 'source via tsx'}; npm ${(await run('npm', ['--version'])).stdout.trim()}, ${(await run('skopeo', ['--version'])).stdout.trim()}`);
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'npm') await benchNpm(h, token);
  if (!only || only === 'container') await benchContainer(h, token);
  if (!only || only === 'apt') { await benchApt(h, token, tmp, runs); await benchDebianIndex(h, token); }
} finally {
  h?.child.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
