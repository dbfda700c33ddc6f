// The Debian registry under apt, for bench/packages.mjs:
// (a) `apt-get update` + `apt-get download` of 30 packages from hearth against a bare static file
//     server serving the same files (the dists/ and pool/ hearth built, by-hash copies included),
//     fresh apt state each run, interleaved, median, with the ratio (goal <= 1.1x);
// (b) the time to rebuild the index of a distribution of 1,000 packages: one more upload, until
//     its Packages lists it (the durable job's pick-up, the build, the signatures, the swap).
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { freePort, median, time } from './lib.mjs';

const run = promisify(execFile);
const APT_PACKAGES = 30;
const BIG_INDEX = 1000;

function tarFile(name, data) {
  const h = Buffer.alloc(512);
  const field = (off, len, s) => h.write(s, off, len, 'ascii');
  field(0, 100, name); field(100, 8, '0000644\0'); field(108, 8, '0000000\0'); field(116, 8, '0000000\0');
  field(124, 12, `${data.length.toString(8).padStart(11, '0')}\0`); field(136, 12, '14000000000\0'); field(148, 8, '        ');
  field(156, 1, '0'); field(257, 6, 'ustar\0'); field(263, 2, '00');
  let sum = 0;
  for (const b of h) sum += b;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return Buffer.concat([h, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}
const tar = (files) => Buffer.concat([...files.map(([n, d]) => tarFile(n, d)), Buffer.alloc(1024)]);

function arMember(name, data) {
  const h = Buffer.alloc(60, ' ');
  h.write(name.padEnd(16), 0, 'latin1'); h.write('0'.padEnd(12), 16); h.write('0'.padEnd(6), 28); h.write('0'.padEnd(6), 34);
  h.write('100644'.padEnd(8), 40); h.write(String(data.length).padEnd(10), 48); h.write('`\n', 58);
  return Buffer.concat([h, data, data.length % 2 ? Buffer.from('\n') : Buffer.alloc(0)]);
}

/** A .deb written directly (ar of debian-binary, control.tar.gz, data.tar.gz): dpkg-deb for 1,000 is slow. */
function makeDeb(name, payloadBytes) {
  const control = `Package: ${name}\nVersion: 1.0\nArchitecture: amd64\nMaintainer: Bench <bench@example.com>\nDescription: bench package ${name}\n`;
  const data = zlib.gzipSync(tar([[`./usr/share/${name}/data.bin`, crypto.randomBytes(payloadBytes)]]), { level: 1 });
  return Buffer.concat([Buffer.from('!<arch>\n'), arMember('debian-binary', Buffer.from('2.0\n')),
    arMember('control.tar.gz', zlib.gzipSync(tar([['./control', Buffer.from(control)]]))), arMember('data.tar.gz', data)]);
}

async function uploadAll(h, token, dist, debs, parallel = 4) {
  let next = 0;
  const worker = async () => {
    while (next < debs.length) {
      const deb = debs[next++];
      const res = await fetch(`${h.base}api/packages/root/debian/pool/${dist}/main/upload`, { method: 'PUT', headers: { Authorization: `token ${token}` }, body: deb });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

async function waitForPackages(h, dist, test, ms = 600_000) {
  const start = Date.now();
  for (;;) {
    const res = await fetch(`${h.base}api/packages/root/debian/dists/${dist}/main/binary-amd64/Packages`);
    if (res.status === 200 && test(await res.text())) return;
    if (Date.now() - start > ms) throw new Error(`index of ${dist} not built in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const count = (text) => (text.match(/^Package: /gm) ?? []).length;

/** Copies hearth's dists/ and pool/ of a distribution into `dir`, with by-hash copies as apt asks for them. */
async function mirror(h, dist, names, dir) {
  const root = `${h.base}api/packages/root/debian`;
  const get = async (p) => Buffer.from(await (await fetch(`${root}/${p}`)).arrayBuffer());
  const put = (p, data) => { fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true }); fs.writeFileSync(path.join(dir, p), data); };
  const release = (await get(`dists/${dist}/Release`)).toString();
  for (const f of ['Release', 'InRelease', 'Release.gpg']) put(`dists/${dist}/${f}`, await get(`dists/${dist}/${f}`));
  const listed = [...new Set([...release.matchAll(/^ [0-9a-f]+ +\d+ (\S+)$/gm)].map((m) => m[1]))];
  for (const f of listed) {
    const data = await get(`dists/${dist}/${f}`);
    put(`dists/${dist}/${f}`, data);
    for (const [dirName, alg] of [['MD5Sum', 'md5'], ['SHA1', 'sha1'], ['SHA256', 'sha256'], ['SHA512', 'sha512']]) {
      put(`dists/${dist}/${path.dirname(f)}/by-hash/${dirName}/${crypto.createHash(alg).update(data).digest('hex')}`, data);
    }
  }
  for (const n of names) put(`pool/${dist}/main/${n}_1.0_amd64.deb`, await get(`pool/${dist}/main/${n}_1.0_amd64.deb`));
}

async function startStaticFiles(dir) {
  const port = await freePort();
  const code = `const http=require('http'),fs=require('fs'),path=require('path');const dir=process.argv[1];
http.createServer((req,res)=>{const f=path.join(dir,decodeURIComponent(req.url.split('?')[0]));
fs.stat(f,(e,st)=>{if(e||!st.isFile()){res.writeHead(404);return res.end();}res.writeHead(200,{'Content-Length':st.size,'Last-Modified':st.mtime.toUTCString()});if(req.method==='HEAD')return res.end();fs.createReadStream(f).pipe(res);});})
.listen(${port},'127.0.0.1',()=>console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  return { child, base: `http://127.0.0.1:${port}/` };
}

/** One cold `apt-get update` + `apt-get download` of every package from `url`; ms. */
async function aptRun(tmp, url, dist, key, names) {
  const dir = fs.mkdtempSync(path.join(tmp, 'apt-'));
  for (const d of ['state/lists/partial', 'cache/archives/partial', 'etc/apt.conf.d', 'etc/preferences.d', 'dl']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.writeFileSync(path.join(dir, 'key.asc'), key);
  fs.writeFileSync(path.join(dir, 'state/status'), '');
  fs.writeFileSync(path.join(dir, 'etc/sources.list'), `deb [signed-by=${dir}/key.asc] ${url} ${dist} main\n`);
  const args = ['-q', '-o', `Dir::Etc=${dir}/etc`, '-o', `Dir::Etc::SourceList=${dir}/etc/sources.list`, '-o', 'Dir::Etc::SourceParts=-',
    '-o', `Dir::State=${dir}/state`, '-o', `Dir::State::status=${dir}/state/status`, '-o', `Dir::Cache=${dir}/cache`,
    '-o', 'Debug::NoLocking=1', '-o', 'APT::Architecture=amd64', '-o', 'APT::Sandbox::User=root', '-o', 'Acquire::Languages=none'];
  const ms = await time(async () => {
    await run('apt-get', [...args, 'update'], { maxBuffer: 1 << 24 });
    await run('apt-get', [...args, 'download', ...names], { cwd: path.join(dir, 'dl'), maxBuffer: 1 << 24 });
  });
  const got = fs.readdirSync(path.join(dir, 'dl')).filter((f) => f.endsWith('.deb')).length;
  if (got !== names.length) throw new Error(`apt-get downloaded ${got} of ${names.length} packages from ${url}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

export async function benchApt(h, token, tmp, runs) {
  const names = Array.from({ length: APT_PACKAGES }, (_, i) => `bench-apt-${String(i).padStart(2, '0')}`);
  await uploadAll(h, token, 'bench', names.map((n) => makeDeb(n, 64 << 10)));
  await waitForPackages(h, 'bench', (t) => count(t) === APT_PACKAGES);
  const key = Buffer.from(await (await fetch(`${h.base}api/packages/root/debian/repository.key`)).arrayBuffer());
  const staticDir = path.join(tmp, 'apt-static');
  await mirror(h, 'bench', names, staticDir);
  const bare = await startStaticFiles(staticDir);
  const a = [];
  const b = [];
  try {
    for (let r = 0; r < runs; r++) {
      a.push(await aptRun(tmp, `${h.base}api/packages/root/debian`, 'bench', key, names));
      b.push(await aptRun(tmp, bare.base.replace(/\/$/, ''), 'bench', key, names));
    }
  } finally {
    bare.child.kill();
  }
  const [ha, bb] = [median(a), median(b)];
  console.log(`apt-get update + download, ${APT_PACKAGES} packages, cold state, median of ${runs}: hearth ${ha.toFixed(0)} ms | static files ${bb.toFixed(0)} ms | ratio ${(ha / bb).toFixed(2)}x (goal <= 1.1x)`);
}

export async function benchDebianIndex(h, token) {
  const names = Array.from({ length: BIG_INDEX }, (_, i) => `big-${String(i).padStart(4, '0')}`);
  const fill = await time(async () => {
    await uploadAll(h, token, 'big', names.map((n) => makeDeb(n, 256)));
    await waitForPackages(h, 'big', (t) => count(t) === BIG_INDEX);
  });
  const rebuilds = [];
  for (let i = 0; i < 3; i++) {
    const extra = `big-extra-${i}`;
    rebuilds.push(await time(async () => {
      await uploadAll(h, token, 'big', [makeDeb(extra, 256)], 1);
      await waitForPackages(h, 'big', (t) => t.includes(`Package: ${extra}\n`));
    }));
  }
  console.log(`debian index of ${BIG_INDEX} packages: ${BIG_INDEX} uploads until indexed ${(fill / 1000).toFixed(1)} s; one more upload until its index is rebuilt, median of 3: ${median(rebuilds).toFixed(0)} ms`);
}
