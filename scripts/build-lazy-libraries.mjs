// The libraries no start needs, each built as its own bundle and packed beside the application's
// (build.mjs). In one bundle their ~2.8 MB of source stayed resident from the start on (V8 keeps
// a script's whole source to compile its functions lazily), and was read and copied at every
// start. The application's bundle holds a stand-in for each that requires `hearth:lib/<name>`:
// src/lib/payload-require.ts compiles that library's bundle from the executable on first use.
// The code cache warm-up fails the build if a start loads one before its first answer
// (scripts/build-code-cache.mjs): such a library belongs in the application's bundle.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * Loaded only by a request, event, job or command that needs them. Libraries that share state
 * with the start's code stay out: protobuf's message types (the runner protocol's generated code
 * and connect must see the same classes), and everything a start evaluates.
 */
export const LAZY_LIBRARIES = [
  'undici', 'openpgp', 'ssh2', 'yaml', 'fast-xml-parser', 'sanitize-html', 'markdown-it', 'markdown-it-emoji',
  'highlight.js/lib/common', 'multer', 'prom-client', 'node-cron', 'papaparse', 'yauzl', 'yazl', 'tar-stream', 'pngjs', 'omggif',
  'jpeg-js', 'fzstd', 'seek-bzip', 'xz-decompress', 'passport', 'passport-strategy', 'passport-local', 'passport-http',
  // PostgreSQL's client (~85 KB): only a start with [database] driver = "postgres" loads it.
  'pg',
  // The AWS SDK (~600 KB: @aws-sdk and @smithy), as one bundle: only [storage] type = "s3" loads it.
  'aws-sdk',
  // The runner protocol (~185 KB: connect, protobuf-es and the generated code), as one bundle:
  // only a runner's request, the embedded runner or `hearth runner` loads it.
  'runner-protocol',
  // PostgreSQL's baseline schema (~53 KB of SQL text): only a migration on PostgreSQL reads it.
  'postgres-baseline',
  // mime-types' table (150 KB of JSON): mime-types itself loads on first use (build.mjs's stand-in).
  'mime-db',
];

/**
 * Lazy libraries that are modules of hearth's, by their name in LAZY_LIBRARIES: a module that
 * gathers a library's several packages so that they share one copy of their dependencies
 * (src/lib/blob-storage/aws-sdk.ts, src/lib/runner-protocol.ts), or one that is only data
 * (src/db/postgres/baseline.ts). Every import of the file, whatever its specifier, gets the stand-in.
 */
export const LAZY_SOURCES = {
  'aws-sdk': 'src/lib/blob-storage/aws-sdk.ts',
  'runner-protocol': 'src/lib/runner-protocol.ts',
  'postgres-baseline': 'src/db/postgres/baseline.ts',
};

const PREFIX = 'hearth:lib/';

const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Each of `names` replaced by a stand-in that requires its packed bundle at run time. */
export function lazyLibraryStandIns(names) {
  const packages = names.filter((n) => !LAZY_SOURCES[n]);
  const filter = new RegExp(`^(${packages.map(escaped).join('|')})$`);
  // A relative import resolved to one of the sources (without its extension) -> its name.
  const sources = new Map(names.filter((n) => LAZY_SOURCES[n])
    .map((n) => [path.resolve(ROOT, LAZY_SOURCES[n]).replace(/\.ts$/, ''), n]));
  const baseNames = [...sources.keys()].map((f) => escaped(path.basename(f)));
  return {
    name: 'lazy-library-stand-ins',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-library' }));
      if (baseNames.length) {
        b.onResolve({ filter: new RegExp(`^\\.\\.?/(.*/)?(${baseNames.join('|')})(\\.ts)?$`) }, (args) => {
          const name = sources.get(path.resolve(args.resolveDir, args.path).replace(/\.ts$/, ''));
          return name ? { path: name, namespace: 'lazy-library' } : undefined;
        });
      }
      b.onLoad({ filter: /.*/, namespace: 'lazy-library' }, (args) => ({
        loader: 'js', contents: `module.exports = require(${JSON.stringify(PREFIX + args.path)});`,
      }));
      b.onResolve({ filter: /^hearth:lib\// }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * esbuild leaves non-ASCII characters in regular expression literals; one such character makes
 * V8 hold the whole source as a two-byte string. Escaped, it stays one-byte. Wrapped as a
 * CommonJS module function, which the executable compiles and calls.
 */
export const asModuleFunction = (source) => `(function (exports, require, module, __filename, __dirname) {${
  source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n})`;

/** Every library of LAZY_LIBRARIES as a module function, by its name in the payload (`lib/<name>.cjs`). */
export async function buildLazyLibraries({ esbuildOptions, plugins, root }) {
  const files = {};
  for (const name of LAZY_LIBRARIES) {
    const result = await build({
      ...esbuildOptions,
      stdin: { contents: `module.exports = require(${JSON.stringify(LAZY_SOURCES[name] ? `./${LAZY_SOURCES[name]}` : name)});`, resolveDir: root, loader: 'js' },
      write: false, outfile: 'library.cjs', keepNames: true, define: { 'process.env.NODE_ENV': '"production"' },
      // The other lazy libraries by their stand-ins: one copy of each (passport's strategies share one base class).
      // First: a stand-in wins over build.mjs's swaps (multer's mime-db is the packed one).
      plugins: [lazyLibraryStandIns(LAZY_LIBRARIES.filter((n) => n !== name)), ...plugins],
    });
    files[`lib/${name}.cjs`] = Buffer.from(asModuleFunction(result.outputFiles[0].text));
  }
  return files;
}

/**
 * Loads every packed library in `node` (the executable's runtime) as the executable would, each
 * requiring the others through their stand-ins: a library that fails to load, or loads empty,
 * fails the build rather than its first request.
 */
export function checkLazyLibraries(node, files) {
  const sources = Object.fromEntries(Object.entries(files).map(([file, bytes]) => [file, bytes.toString('latin1')]));
  const script = `const vm = require('node:vm'); const sources = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const loaded = new Map();
function req(id) {
  if (!id.startsWith(${JSON.stringify(PREFIX)})) return require(id);
  const name = id.slice(${PREFIX.length});
  if (loaded.has(name)) return loaded.get(name).exports;
  const m = { exports: {} }; loaded.set(name, m);
  vm.runInThisContext(sources['lib/' + name + '.cjs'], { filename: name })(m.exports, req, m, process.execPath, '/');
  return m.exports;
}
for (const name of ${JSON.stringify(LAZY_LIBRARIES)}) {
  const e = req(${JSON.stringify(PREFIX)} + name);
  if (typeof e !== 'function' && (e === null || typeof e !== 'object' || Object.keys(e).length === 0)) throw new Error(name + ' exports nothing');
}`;
  execFileSync(node, ['-e', script], { input: JSON.stringify(sources), stdio: ['pipe', 'ignore', 'inherit'] });
}
