// The Cargo registry under load, against a baseline, in one run (issue 36): `cargo fetch` of a
// project depending on 30 crates from hearth's sparse index, against the same index files and
// .crate files served by a bare static file server, a cold CARGO_HOME each run, median of 3,
// interleaved, with the ratio (target within 1.1x).
// Usage: node bench/packages-cargo.mjs [runs=3]   (dist/hearth when built, else the source via tsx)
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, median, startHearth, time } from './lib.mjs';

const run = promisify(execFile);
const runs = Number(process.argv[2] ?? 3);
const CRATES = 30;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-cargo-'));
// Debian's cargo 1.65 takes sparse registries only with -Z sparse-registry; RUSTC_BOOTSTRAP lets it.
const cargoEnv = (home) => ({ ...process.env, CARGO_HOME: home, RUSTC_BOOTSTRAP: '1', CARGO_TERM_COLOR: 'never' });
const indexPath = (n) => (n.length <= 2 ? `${n.length}/${n}` : n.length === 3 ? `3/${n[0]}/${n}` : `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`);

/** A .crate as cargo packs it: {name}-{version}/Cargo.toml and src/lib.rs in a .tar.gz. */
async function makeCrate(dir, name) {
  const root = path.join(dir, name, `${name}-1.0.0`);
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'Cargo.toml'), `[package]\nname = "${name}"\nversion = "1.0.0"\nedition = "2021"\ndescription = "bench"\nlicense = "MIT"\n`);
  fs.writeFileSync(path.join(root, 'src', 'lib.rs'), `pub fn name() -> &'static str { "${name}" }\n${'// filler\n'.repeat(200)}`);
  const file = path.join(dir, `${name}-1.0.0.crate`);
  await run('tar', ['czf', file, '-C', path.join(dir, name), `${name}-1.0.0`]);
  const data = fs.readFileSync(file);
  return { name, data, cksum: crypto.createHash('sha256').update(data).digest('hex') };
}

/** Publishes as `cargo publish` does: u32 LE + JSON, u32 LE + the .crate. */
async function publish(h, token, c) {
  const json = Buffer.from(JSON.stringify({ name: c.name, vers: '1.0.0', deps: [], features: {}, description: 'bench', license: 'MIT' }));
  const a = Buffer.alloc(4); a.writeUInt32LE(json.length);
  const b = Buffer.alloc(4); b.writeUInt32LE(c.data.length);
  const res = await fetch(`${h.cargo}api/v1/crates/new`, { method: 'PUT', headers: { Authorization: `Bearer ${token}` }, body: Buffer.concat([a, json, b, c.data]) });
  if (res.status !== 200) throw new Error(`publishing ${c.name}: ${res.status} ${await res.text()}`);
}

/** The baseline: config.json, index files and .crate files as static files, served by a bare node http server in its own process. */
async function startStatic(dir, crates) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ dl: `${base}dl`, api: base.slice(0, -1), 'auth-required': false }));
  for (const c of crates) {
    const line = JSON.stringify({ name: c.name, vers: '1.0.0', deps: [], cksum: c.cksum, features: {}, yanked: false });
    fs.mkdirSync(path.join(dir, path.dirname(indexPath(c.name))), { recursive: true });
    fs.writeFileSync(path.join(dir, indexPath(c.name)), `${line}\n`);
    fs.mkdirSync(path.join(dir, 'dl', c.name, '1.0.0'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dl', c.name, '1.0.0', 'download'), c.data);
  }
  const code = `const http=require('http'),fs=require('fs'),path=require('path');const dir=process.argv[1];
http.createServer((req,res)=>{const f=path.join(dir,decodeURIComponent(req.url.split('?')[0]));
fs.stat(f,(e,st)=>{if(e||!st.isFile()){res.writeHead(404);return res.end();}res.writeHead(200,{'Content-Type':'application/octet-stream','Content-Length':st.size});fs.createReadStream(f).pipe(res);});})
.listen(${port},'127.0.0.1',()=>console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  return { child, index: base };
}

/** One `cargo fetch` of the project from the sparse index at `index`, with a cold CARGO_HOME; ms. */
async function cargoFetch(project, index) {
  const home = fs.mkdtempSync(path.join(tmp, 'cargo-home-'));
  fs.writeFileSync(path.join(home, 'config.toml'), `[registries.bench]\nindex = "sparse+${index}"\n[unstable]\nsparse-registry = true\n`);
  fs.rmSync(path.join(project, 'Cargo.lock'), { force: true });
  const ms = await time(() => run('cargo', ['fetch', '-q'], { cwd: project, env: cargoEnv(home) }));
  const cached = fs.readdirSync(path.join(home, 'registry', 'cache'), { recursive: true }).filter((f) => String(f).endsWith('.crate'));
  if (cached.length !== CRATES) throw new Error(`cargo fetch got ${cached.length} crates`);
  fs.rmSync(home, { recursive: true, force: true });
  return ms;
}

let h;
try {
  h = await startHearth(path.join(tmp, 'data'));
  h.cargo = `${h.base}api/packages/root/cargo/`;
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const res = await fetch(`${h.base}api/v1/users/root/tokens`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'bench', scopes: ['write:package'] }) });
  if (res.status !== 201) throw new Error(`creating a token: ${res.status} ${await res.text()}`);
  const { sha1: token } = await res.json();
  console.log(`${h.exe.endsWith('hearth') ? 'dist/hearth' : 'source via tsx'}; ${(await run('cargo', ['--version'])).stdout.trim()}`);
  const crates = [];
  for (let i = 0; i < CRATES; i++) crates.push(await makeCrate(path.join(tmp, 'src'), `bench_crate_${String(i).padStart(2, '0')}`));
  for (const c of crates) await publish(h, token, c);
  const bare = await startStatic(path.join(tmp, 'static'), crates);
  const project = path.join(tmp, 'project');
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'src', 'main.rs'), 'fn main() {}\n');
  fs.writeFileSync(path.join(project, 'Cargo.toml'), `[package]\nname = "bench-project"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\n${crates.map((c) => `${c.name} = { version = "1", registry = "bench" }`).join('\n')}\n`);
  const a = [];
  const b = [];
  // Interleaved so that drift on the machine touches both sides alike.
  for (let r = 0; r < runs; r++) { a.push(await cargoFetch(project, h.cargo)); b.push(await cargoFetch(project, bare.index)); }
  bare.child.kill();
  const [ha, bb] = [median(a), median(b)];
  console.log(`cargo fetch, ${CRATES} crates, cold CARGO_HOME, median of ${runs}: hearth ${ha.toFixed(0)} ms | static files ${bb.toFixed(0)} ms | ratio ${(ha / bb).toFixed(2)}x (target within 1.1x)`);
} finally {
  h?.child.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
