// Builds dist/hearth: esbuild bundle → Node single-executable blob (with the better-sqlite3
// addon and the swagger UI files as assets) → postject into a copy of the running `node`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

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

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

const bundle = path.join(work, 'hearth.cjs');
await build({
  entryPoints: [path.join(root, 'src/main.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  keepNames: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [optionalModulesAsEmpty(['supports-color'])],
});

// esbuild leaves non-ASCII characters in regular expression literals; one such character makes
// V8 hold the whole 2.6 MB source as a two-byte string (5 MB of heap). Escaped, it stays one-byte.
const source = fs.readFileSync(bundle, 'utf8');
fs.writeFileSync(bundle, source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

// The addon better-sqlite3 built for this node; loaded with process.dlopen at start.
const addon = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
// Option files (licenses, gitignores, labels, readmes) as assets, with a manifest listing them.
const optionsDir = path.join(root, 'assets', 'options');
const optionAssets = {};
const manifest = {};
for (const kind of fs.readdirSync(optionsDir)) {
  manifest[kind] = fs.readdirSync(path.join(optionsDir, kind)).filter((f) => !f.startsWith('.')).sort();
  for (const name of manifest[kind]) optionAssets[`options/${kind}/${name}`] = path.join(optionsDir, kind, name);
}
const manifestFile = path.join(work, 'options-manifest.json');
fs.writeFileSync(manifestFile, JSON.stringify(manifest));
const blob = path.join(work, 'sea-prep.blob');
const seaConfig = {
  main: bundle,
  output: blob,
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  assets: {
    'better_sqlite3.node': addon,
    'swagger-ui.css': path.join(swaggerDir, 'swagger-ui.css'),
    'swagger-ui-bundle.js': path.join(swaggerDir, 'swagger-ui-bundle.js'),
    'options-manifest.json': manifestFile,
    ...optionAssets,
  },
};
const seaConfigFile = path.join(work, 'sea-config.json');
fs.writeFileSync(seaConfigFile, JSON.stringify(seaConfig, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', seaConfigFile], { stdio: 'inherit' });

const exe = path.join(dist, 'hearth');
const tmpExe = `${exe}.tmp`;
fs.copyFileSync(process.execPath, tmpExe);
fs.chmodSync(tmpExe, 0o755);
const { inject } = require('postject');
await inject(tmpExe, 'NODE_SEA_BLOB', fs.readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
});
fs.renameSync(tmpExe, exe);
fs.rmSync(work, { recursive: true, force: true });

const mb = (fs.statSync(exe).size / 1024 / 1024).toFixed(1);
console.log(`built ${path.relative(process.cwd(), exe)} (${mb} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
