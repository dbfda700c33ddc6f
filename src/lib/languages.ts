// A small linguist: file extension or name to language, with linguist's language types.
// Only programming and markup languages count in statistics (as Gitea's go-enry rules);
// vendored, generated, documentation and dot files are left out.

type LangType = 'programming' | 'markup';
type Lang = readonly [name: string, type: LangType];

const P = (name: string): Lang => [name, 'programming'];
const M = (name: string): Lang => [name, 'markup'];

const BY_EXTENSION: Record<string, Lang> = {
  ts: P('TypeScript'), mts: P('TypeScript'), cts: P('TypeScript'), tsx: P('TypeScript'),
  js: P('JavaScript'), mjs: P('JavaScript'), cjs: P('JavaScript'), jsx: P('JavaScript'),
  go: P('Go'), py: P('Python'), pyi: P('Python'), rs: P('Rust'), java: P('Java'),
  c: P('C'), h: P('C'), cc: P('C++'), cpp: P('C++'), cxx: P('C++'), hpp: P('C++'), hh: P('C++'), hxx: P('C++'),
  cs: P('C#'), fs: P('F#'), vb: P('Visual Basic .NET'), kt: P('Kotlin'), kts: P('Kotlin'),
  swift: P('Swift'), m: P('Objective-C'), mm: P('Objective-C++'), rb: P('Ruby'), php: P('PHP'),
  pl: P('Perl'), pm: P('Perl'), lua: P('Lua'), scala: P('Scala'), groovy: P('Groovy'),
  hs: P('Haskell'), ex: P('Elixir'), exs: P('Elixir'), erl: P('Erlang'), clj: P('Clojure'),
  dart: P('Dart'), r: P('R'), jl: P('Julia'), zig: P('Zig'), nim: P('Nim'), ml: P('OCaml'),
  sh: P('Shell'), bash: P('Shell'), zsh: P('Shell'), ps1: P('PowerShell'), bat: P('Batchfile'), cmd: P('Batchfile'),
  asm: P('Assembly'), s: P('Assembly'), sol: P('Solidity'), tf: P('HCL'), cmake: P('CMake'),
  mk: P('Makefile'), elm: P('Elm'), v: P('V'), d: P('D'), pas: P('Pascal'), f90: P('Fortran'),
  html: M('HTML'), htm: M('HTML'), css: M('CSS'), scss: M('SCSS'), sass: M('Sass'), less: M('Less'),
  vue: M('Vue'), svelte: M('Svelte'), tex: M('TeX'),
};

const BY_NAME: Record<string, Lang> = {
  makefile: P('Makefile'), gnumakefile: P('Makefile'), dockerfile: P('Dockerfile'),
  'cmakelists.txt': P('CMake'), rakefile: P('Ruby'), gemfile: P('Ruby'),
};

const EXCLUDED = [
  // vendored and generated
  /(^|\/)(node_modules|vendor|bower_components|third[-_]?party|3rd[-_]?party|Godeps|deps)\//i,
  /\.min\.(js|css)$/i, /(^|\/)(dist|build)\/.*\.js$/i, /\.pb\.go$/, /_pb2\.py$/,
  // documentation
  /^docs?\//i, /(^|\/)documentation\//i, /(^|\/)examples?\//i,
  /(^|\/)(readme|changelog|changes|contributing|copying|install|licen[cs]e)(\.|$)/i,
];

/** The language of a file path, or undefined when it does not count. */
export function languageOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base.startsWith('.') || EXCLUDED.some((re) => re.test(path))) return undefined;
  const lower = base.toLowerCase();
  const byName = BY_NAME[lower] ?? (lower.startsWith('dockerfile.') ? BY_NAME.dockerfile : undefined);
  if (byName) return byName[0];
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[lower.slice(dot + 1)]?.[0] : undefined;
}

/** Bytes per language over `files`, largest first (object key order). */
export function languageStats(files: { path: string; size: number }[]): Record<string, number> {
  const sizes = new Map<string, number>();
  for (const f of files) {
    if (f.size <= 0) continue;
    const lang = languageOf(f.path);
    if (lang) sizes.set(lang, (sizes.get(lang) ?? 0) + f.size);
  }
  return Object.fromEntries([...sizes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
