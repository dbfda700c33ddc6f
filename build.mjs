// Builds dist/hearth: esbuild bundle → Node single-executable blob (with the better-sqlite3
// addon, the swagger UI and the option templates packed as one asset) → postject into a copy
// of the pinned Node 24 LTS binary (scripts/build-runtime.mjs), whatever Node runs the build;
// then the executable's code cache, taken by a start of that executable, and the blob again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { compileSqliteAddon, fetchRuntime, RUNTIME } from './scripts/build-runtime.mjs';
import { takeCodeCache } from './scripts/build-code-cache.mjs';
import { makeExecutable } from './scripts/build-sea.mjs';
import { asModuleFunction, buildLazyLibraries, checkLazyLibraries, LAZY_LIBRARIES, lazyLibraryStandIns } from './scripts/build-lazy-libraries.mjs';

const require = createRequire(import.meta.url);
const root = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(root, 'dist');
const work = path.join(dist, 'build');
const started = Date.now();

/** `debug` probes for supports-color in a try block; inside the SEA that probe prints a warning. */
function optionalModulesAsEmpty(names) {
  const filter = new RegExp(`^(${names.join('|')})$`);
  return {
    name: 'optional-modules-as-empty',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'empty' }));
      b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    },
  };
}

/**
 * Modules swapped for leaner ones in the bundle: multer's older mime-db copy for the one express
 * uses, iconv-lite (480 KB of charset tables) for the UTF-8/Latin-1 decoder the API needs, and
 * mime-types for a stand-in that loads it on first use: building its tables from mime-db took
 * ~8 ms of every start, for the first static file or typed reply; depd for one that walks the
 * stack only when a deprecation is reported, and pino's caller lookup for none.
 */
function leanerModules() {
  const swaps = {
    'mime-db': require.resolve('mime-db'),
    'iconv-lite': path.join(root, 'src/lib/iconv-lite-lean.ts'),
  };
  return {
    name: 'leaner-modules',
    setup(b) {
      b.onResolve({ filter: /^(mime-db|iconv-lite)$/ }, (args) => ({ path: swaps[args.path] }));
      b.onResolve({ filter: /^mime-types$/ }, (args) => ({
        path: require.resolve('mime-types', { paths: [args.resolveDir] }), namespace: 'lazy-mime-types',
      }));
      // charset() and contentType() of a full type (every JSON reply: express's res.set) answer
      // from the charsets mime-db declares, exactly as mime-types does, without its tables.
      const charsets = Object.fromEntries(Object.entries(require('mime-db')).filter(([, e]) => e.charset).map(([t, e]) => [t, e.charset]));
      b.onLoad({ filter: /.*/, namespace: 'lazy-mime-types' }, (args) => ({
        resolveDir: root,
        loader: 'js',
        contents: `let m; const real = () => (m ??= require(${JSON.stringify(args.path)}));
const CHARSETS = ${JSON.stringify(charsets)};
function charset(type) {
  if (!type || typeof type !== 'string') return false;
  const match = /^\\s*([^;\\s]*)(?:;|\\s|$)/.exec(type);
  const known = match && CHARSETS[match[1].toLowerCase()];
  if (known) return known;
  return match && /^text\\//i.test(match[1]) ? 'UTF-8' : false;
}
function contentType(str) {
  if (!str || typeof str !== 'string') return false;
  if (str.indexOf('/') === -1) return real().contentType(str);
  const cs = str.indexOf('charset') === -1 && charset(str);
  return cs ? str + '; charset=' + cs.toLowerCase() : str;
}
module.exports = {
  charset, charsets: { lookup: charset }, contentType,
  extension: (t) => real().extension(t), lookup: (p) => real().lookup(p),
  get extensions() { return real().extensions; }, get types() { return real().types; },
};`,
      }));
      // depd reads its caller's line number when a library makes its deprecate function (express,
      // router and http-errors do as they load): V8 then computed the line ends of the whole 3 MB
      // bundle, ~10 ms of every start. The stand-in makes the real one with the first deprecation
      // it reports (in the bundle every caller is the same file, so depd learns nothing sooner).
      b.onResolve({ filter: /^depd$/ }, (args) => ({
        path: require.resolve('depd', { paths: [args.resolveDir] }), namespace: 'lazy-depd',
      }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-depd' }, (args) => ({
        resolveDir: root,
        loader: 'js',
        contents: `let depd;
module.exports = function lazyDepd(namespace) {
  let real;
  const get = () => (real ??= (depd ??= require(${JSON.stringify(args.path)}))(namespace));
  const deprecate = (message) => get()(message);
  deprecate.function = (fn, message) => get().function(fn, message);
  deprecate.property = (obj, prop, message) => get().property(obj, prop, message);
  return deprecate;
};`,
      }));
      // pino() asks for its callers' file names on every logger it makes, only to resolve a
      // transport's relative targets (hearth uses none; in the bundle every caller is this one
      // file): the same line-ends walk. The stand-in names no caller.
      b.onResolve({ filter: /^\.\.?\/(lib\/)?caller$/ }, (args) => (/[\\/]node_modules[\\/]pino[\\/]/.test(args.importer)
        ? { path: 'pino-caller', namespace: 'pino-no-caller' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'pino-no-caller' }, () => ({ loader: 'js', contents: 'module.exports = function getCallers() { return []; };' }));
    },
  };
}

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const cacheRoot = path.join(root, 'node_modules', '.cache', 'hearth-runtime');
const runtime = fetchRuntime(cacheRoot);
const addon = compileSqliteAddon(cacheRoot, runtime, path.dirname(require.resolve('better-sqlite3/package.json')));

const esbuildOptions = {
  bundle: true, platform: 'node', target: 'node24', format: 'cjs', minify: true, sourcemap: false, legalComments: 'none', logLevel: 'warning',
};
const bundle = path.join(work, 'hearth.cjs');
// ssh2's optional native parts: cpu-features (only orders ciphers) and its sshcrypto binding;
// both are loaded in try blocks and ssh2 runs on Node's crypto without them.
const bundlePlugins = [optionalModulesAsEmpty(['supports-color', 'cpu-features', '\\./crypto/build/Release/sshcrypto\\.node']), leanerModules()];
await build({
  ...esbuildOptions,
  entryPoints: [path.join(root, 'src/main.ts')],
  outfile: bundle,
  // No keepNames: naming every function cost ~1.8 MB of heap at each start (bench/startup); the
  // error classes that logs name keep their names themselves (src/lib/errors.ts).
  define: { 'process.env.NODE_ENV': '"production"' },
  // The stand-ins first: mime-db's wins over leanerModules' swap of it.
  plugins: [lazyLibraryStandIns(LAZY_LIBRARIES), ...bundlePlugins],
});
// One-byte source, as a CommonJS module function: src/exe-bootstrap.ts compiles and calls it.
fs.writeFileSync(bundle, asModuleFunction(fs.readFileSync(bundle, 'utf8')));
// The libraries no start needs, each its own module function (scripts/build-lazy-libraries.mjs).
const lazyLibraries = await buildLazyLibraries({ esbuildOptions, plugins: bundlePlugins, root });
checkLazyLibraries(runtime.node, lazyLibraries);

// Worker threads' code (src/lib/serial-worker.ts runs it from the payload).
const WORKERS = {
  'avatar-worker': 'src/lib/image/avatar-worker.ts', 'markdown-worker': 'src/lib/markdown-worker.ts', 'highlight-worker': 'src/lib/highlight-worker.ts',
};
for (const [name, entry] of Object.entries(WORKERS)) {
  await build({
    ...esbuildOptions, entryPoints: [path.join(root, entry)], outfile: path.join(work, `${name}.cjs`), keepNames: true,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}

// The SEA main script: answers --version, else compiles the bundle with the code cache.
const bootstrap = path.join(work, 'bootstrap.cjs');
await build({ ...esbuildOptions, entryPoints: [path.join(root, 'src/exe-bootstrap.ts')], outfile: bootstrap });

// Every file the executable carries (src/lib/sea-payload.ts reads them). Small files first, so
// the ones read at start (the addon's hash) share the index's pages.
const addonBytes = fs.readFileSync(addon);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const optionsDir = path.join(root, 'assets', 'options');
const manifest = {};
const files = {
  'better_sqlite3.node.sha256': Buffer.from(createHash('sha256').update(addonBytes).digest('hex')),
};
for (const kind of fs.readdirSync(optionsDir)) {
  manifest[kind] = fs.readdirSync(path.join(optionsDir, kind)).filter((f) => !f.startsWith('.')).sort();
  for (const name of manifest[kind]) files[`options/${kind}/${name}`] = fs.readFileSync(path.join(optionsDir, kind, name));
}
files['options-manifest.json'] = Buffer.from(JSON.stringify(manifest));
// The web pages' stylesheet and script (src/lib/web-assets.ts names them by content hash).
for (const name of ['hearth.css', 'hearth.js']) files[`web/${name}`] = fs.readFileSync(path.join(root, 'assets', 'web', name));
files['swagger-ui.css'] = fs.readFileSync(path.join(swaggerDir, 'swagger-ui.css'));
files['swagger-ui-bundle.js'] = fs.readFileSync(path.join(swaggerDir, 'swagger-ui-bundle.js'));
for (const name of Object.keys(WORKERS)) files[`${name}.cjs`] = fs.readFileSync(path.join(work, `${name}.cjs`));
// libwebp in WebAssembly, for WebP avatars (src/lib/image/webp.ts).
files['webp.wasm'] = fs.readFileSync(path.join(path.dirname(require.resolve('@cwasm/webp/package.json')), 'webp.wasm'));
files['better_sqlite3.node'] = addonBytes;
Object.assign(files, lazyLibraries);
// The application bundle (src/exe-bootstrap.ts), then its code cache.
files['hearth.cjs'] = fs.readFileSync(bundle);

const exe = path.join(dist, 'hearth');
const tmpExe = `${exe}.tmp`;
const sea = { runtimeNode: runtime.node, bootstrap, work, out: tmpExe };
// Built once without a code cache, which that executable then takes of its own start; built again with it.
await makeExecutable({ ...sea, files });
files['hearth.code-cache'] = await takeCodeCache(tmpExe, work);
await makeExecutable({ ...sea, files });
// V8 drops a code cache it does not accept without a word: fail the build instead.
execFileSync(tmpExe, ['--help'], { stdio: 'ignore', env: { ...process.env, HEARTH_CODE_CACHE_CHECK: '1' } });
fs.renameSync(tmpExe, exe);
fs.rmSync(work, { recursive: true, force: true });

const mb = (fs.statSync(exe).size / 1024 / 1024).toFixed(1);
console.log(`built ${path.relative(process.cwd(), exe)} (${mb} MB, Node ${RUNTIME.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
